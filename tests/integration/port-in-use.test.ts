import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A port taken by another program must stop every launcher with one line, before it builds, migrates or
// creates anything: the port check runs first, so none of this needs a build.
const root = path.resolve(import.meta.dirname, '../..');
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'port-in-use-'));
let blocker: net.Server;
let port: number;

beforeAll(async () => {
  blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  port = (blocker.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => blocker.close(resolve));
  fs.rmSync(temp, { recursive: true, force: true });
});

function launch(script: string, dataDir: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, [path.join(root, script)], { cwd: root, env });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('a port already in use', () => {
  for (const script of ['scripts/start.mjs', 'server.mjs']) {
    it(`stops ${script} with one line naming the port, before anything is created`, { timeout: 600_000 }, async () => {
      const dataDir = path.join(temp, path.basename(script, '.mjs'), 'data');
      const { code, stderr } = await launch(script, dataDir);
      expect(stderr).toBe(`Port ${port} on 127.0.0.1 is already in use: stop the program using it or set PORT to another port.\n`);
      expect(stderr).not.toMatch(/^\s+at /m);
      expect(code).toBe(1);
      expect(fs.existsSync(dataDir)).toBe(false);
    });
  }
});
