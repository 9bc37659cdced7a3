import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'astro/config';
import { cspDigestsOnce } from './src/build/csp-digests-once';
import { nodeWorkerEntries } from './src/build/node-worker-entries';
import { pageImportsOnce } from './src/build/page-imports-once';
import { ADMIN_ACTION_BODY_BYTES, LARGEST_BODY_BYTES } from './src/server/http/body-policy';

/**
 * Modules the public layout's scripts share (stores, constants, money, the login redirect key and banner flag,
 * the visit's attribution). Not nanostores' listenKeys and the deep-map paths it reads: only the React
 * islands' @nanostores/react uses them, and in the group every public page paid ~0.2 KB gzip for them.
 */
const PUBLIC_CORE_MODULES =
  /[\\/](?:node_modules[\\/]nanostores[\\/](?!listen-keys|deep-map)|src[\\/]stores[\\/]|src[\\/]shared[\\/](?:constants|money)\.ts|src[\\/]features[\\/](?:navbar[\\/]login-redirect|login-banner[\\/]flag|attribution[\\/]store)\.ts)/;

export default defineConfig({
  output: 'server',
  // Middleware mode: server.mjs owns the HTTP server (built files from memory, route-cache fast path,
  // baseline headers) and hands everything else to Astro. See docs/decisions/002. Pages are rendered whole
  // before a byte is sent, so a proxy can retry an instance that dies mid-render (docs/decisions/036).
  adapter: node({ mode: 'middleware', bodySizeLimit: LARGEST_BODY_BYTES, experimentalDisableStreaming: true }),
  integrations: [react()],
  trailingSlash: 'never',
  devToolbar: { enabled: false },
  markdown: { syntaxHighlight: false },
  security: {
    // Off: the middleware refuses every cross-site write, form posts included, against the site's own
    // origins (src/server/request-origin.ts). Astro's check compares with the request URL, which behind a
    // TLS proxy is http:// and would refuse every form post.
    checkOrigin: false,
    // The middleware holds each Action to its own limit first (src/server/http/body-policy.ts); this is
    // Astro's own ceiling for the largest of them.
    actionBodySizeLimit: ADMIN_ACTION_BODY_BYTES,
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
    plugins: [tailwindcss(), pageImportsOnce(), cspDigestsOnce(), nodeWorkerEntries()],
    resolve: { alias: { '@': new URL('./src', import.meta.url).pathname } },
    build: {
      rolldownOptions: {
        output: {
          codeSplitting: {
            // What the public layout's scripts share stays one chunk: without this, admin islands that
            // import the same stores and helpers cut it into six small files, and the landing page paid
            // ~0.3 KB gzip more for the file boundaries alone.
            groups: [{ name: 'site-core', test: PUBLIC_CORE_MODULES }],
          },
        },
      },
    },
  },
});
