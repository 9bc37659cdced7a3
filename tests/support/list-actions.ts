/** Prints the dotted name of every Action in src/actions (JSON), read from the real `server` object. */
import { server } from '../../src/actions';

function names(node: object, prefix = ''): string[] {
  return Object.entries(node).flatMap(([key, value]) => {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'function' && 'orThrow' in value) return [name];
    return value && typeof value === 'object' ? names(value, name) : [];
  });
}

process.stdout.write(JSON.stringify(names(server).sort()));
process.exit(0);
