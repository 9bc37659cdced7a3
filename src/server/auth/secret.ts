/**
 * The signing secret: AUTH_SECRET when set (required with PostgreSQL, checked in config), otherwise one
 * generated on first start and kept in DATA_DIR/auth-secret (0600), so sessions and emailed links
 * survive restarts of an embedded-database install that was never configured.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { OWNER_ONLY_DIR, OWNER_ONLY_FILE } from '../data-dir';

export function resolveAuthSecret(cfg: { AUTH_SECRET?: string | undefined; dataDir: string }): string {
  if (cfg.AUTH_SECRET) return cfg.AUTH_SECRET;
  const file = path.join(cfg.dataDir, 'auth-secret');
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const secret = randomBytes(48).toString('base64url');
  fs.mkdirSync(cfg.dataDir, { recursive: true, mode: OWNER_ONLY_DIR });
  // 'wx' fails if another process created it meanwhile; then that one's secret wins.
  try {
    fs.writeFileSync(file, `${secret}\n`, { mode: OWNER_ONLY_FILE, flag: 'wx' });
    return secret;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return fs.readFileSync(file, 'utf8').trim();
    throw e;
  }
}
