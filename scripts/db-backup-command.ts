/**
 * What db:backup and db:restore share: validated config, the data folder made owner-only, the file named
 * after `--`, and one clear line (exit 1) for the failures an operator can fix.
 */
import path from 'node:path';
import { ConfigError, config, type AppConfig } from '../src/server/config';
import { DataDirPermissionError, secureDataDir } from '../src/server/data-dir';
import { BackupError } from '../src/server/db/backup';
import { UsageError } from './cli';

export async function runBackupCommand(task: (cfg: AppConfig, file: string | undefined) => Promise<void>) {
  try {
    const cfg = config();
    // Backups are as secret as the database: whatever these commands create is owner-only.
    if (cfg.DATABASE_URL) process.umask(0o077);
    else secureDataDir(cfg.dataDir);
    const file = process.argv.slice(2).find((arg) => arg !== '--');
    await task(cfg, file === undefined ? undefined : path.resolve(file));
  } catch (err) {
    const expected = [BackupError, ConfigError, DataDirPermissionError, UsageError];
    console.error(expected.some((kind) => err instanceof kind) ? (err as Error).message : err);
    process.exit(1);
  }
}
