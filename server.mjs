// Production entry: open and migrate the database, warm the app up on a private loopback port, and only
// then listen for visitors — so the first visitor does not pay start-up, and a failed migration or a
// locked data folder stops the process instead of serving errors.
import http from 'node:http';

process.env.ASTRO_NODE_AUTOSTART = 'disabled';
process.env.ASTRO_TELEMETRY_DISABLED = '1';

// APP_DIST_DIR lets tools serve a build made with `astro build --outDir <dir>` (default ./dist).
const distDir = new URL(`${process.env.APP_DIST_DIR ?? './dist'}/`.replace(/\/+$/, '/'), import.meta.url);
const { handler, startServer } = await import(new URL('server/entry.mjs', distDir).href);

async function warmUp() {
  const probe = http.createServer(handler);
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  try {
    for (const path of ['/readyz', '/']) {
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      const body = await res.text();
      if (path === '/readyz' && res.status !== 200) throw new Error(body || `readyz answered ${res.status}`);
    }
  } finally {
    probe.closeAllConnections();
    await new Promise((resolve) => probe.close(resolve));
  }
}

try {
  await warmUp();
} catch (err) {
  console.error(`The server could not start: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
}
startServer();
