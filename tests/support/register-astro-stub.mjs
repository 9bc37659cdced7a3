// `node --import` this file: 'astro:actions' then resolves to tests/support/astro-actions-stub.mjs.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`export async function resolve(specifier, context, next) {
      if (specifier === 'astro:actions') return { url: ${JSON.stringify(new URL('./astro-actions-stub.mjs', import.meta.url).href)}, shortCircuit: true };
      return next(specifier, context);
    }`),
);
