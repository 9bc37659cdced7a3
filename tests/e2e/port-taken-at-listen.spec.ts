import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './support/fixtures';
import { SERVER_NODE_ARGS } from '../../scripts/server-process.mjs';
import { freePort } from './support/free-port';

// The port can be free when the server checks it and taken by the time the warm-up is over and the server
// listens: that race ends the same way as a port taken from the start — one line, the database closed
// (its lock released), exit 1.
const root = path.resolve(import.meta.dirname, '../..');

test('a port taken while the server warms up stops it with one line and closes the database', async () => {
  test.setTimeout(180_000);
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-port-race-'));
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SEED_DEMO_CONTENT: 'false' };
  delete env.DATABASE_URL;
  const blocker = net.createServer();
  try {
    expect(spawnSync(process.execPath, ['--import', 'tsx', 'scripts/migrate.ts'], { cwd: root, env }).status).toBe(0);
    const server = spawn(process.execPath, SERVER_NODE_ARGS, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    server.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));

    // The lock appears once the port check has passed and the warm-up opens the database.
    await expect.poll(() => fs.existsSync(path.join(dataDir, 'db.lock')), { intervals: [10], timeout: 60_000 }).toBe(true);
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));

    expect(await exited).toBe(1);
    expect(stderr).toBe(`Port ${port} on 127.0.0.1 is already in use: stop the program using it or set PORT to another port.\n`);
    expect(fs.existsSync(path.join(dataDir, 'db.lock'))).toBe(false);
  } finally {
    blocker.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
