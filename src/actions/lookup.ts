/**
 * Whether a name is one of our Actions. Astro looks an Action up by walking its dotted name through the
 * `server` object and fails with a 500 when the walk ends on a domain (`account`) instead of an Action;
 * the middleware answers 404 for any name this does not find, on both transports.
 */
import { server } from './index';

export function isDefinedAction(name: string): boolean {
  let node: unknown = server;
  for (const key of name.split('.')) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === 'function';
}
