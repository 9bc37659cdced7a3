import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'astro/config';
import { LARGEST_BODY_BYTES } from './src/server/http/request-body';

export default defineConfig({
  output: 'server',
  // Middleware mode: server.mjs owns the HTTP server (built files from memory, route-cache fast path,
  // baseline headers) and hands everything else to Astro. See docs/decisions/002.
  adapter: node({ mode: 'middleware', bodySizeLimit: LARGEST_BODY_BYTES }),
  integrations: [react()],
  trailingSlash: 'never',
  devToolbar: { enabled: false },
  markdown: { syntaxHighlight: false },
  security: {
    // Off: the middleware refuses every cross-site write, form posts included, against the site's own
    // origins (src/server/request-origin.ts). Astro's check compares with the request URL, which behind a
    // TLS proxy is http:// and would refuse every form post.
    checkOrigin: false,
    // Hashes every script and style Astro emits into a per-page CSP <meta>: no 'unsafe-inline' scripts.
    // frame-ancestors and the other header-only directives are set by the middleware.
    csp: {
      directives: ["default-src 'self'", "img-src 'self' data: https:", "connect-src 'self'", "font-src 'self'"],
    },
  },
  cache: {
    provider: {
      name: 'byte-limited-memory',
      // The size comes from ROUTE_CACHE_BYTES at run time (read by the provider), not at build time.
      entrypoint: new URL('./src/server/cache/byte-limited-provider.ts', import.meta.url),
    },
  },
  vite: {
    plugins: [tailwindcss()],
    resolve: { alias: { '@': new URL('./src', import.meta.url).pathname } },
  },
});
