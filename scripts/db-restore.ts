/**
 * `npm run db:restore -- <file>`: replaces the configured database with a backup made by db:backup
 * (docs/decisions/025), only while the site is stopped; all or nothing.
 */
import { restorePglite, restorePostgres } from '../src/server/db/backup';
import { UsageError } from './cli';
import { runBackupCommand } from './db-backup-command';

await runBackupCommand(async (cfg, file) => {
  if (!file) throw new UsageError('Name the backup to restore: npm run db:restore -- <file>');
  if (cfg.DATABASE_URL) {
    await restorePostgres(cfg.DATABASE_URL, file);
    console.log(`Restored the PostgreSQL database from ${file}.`);
    return;
  }
  const previous = await restorePglite(cfg.dataDir, file);
  console.log(`Restored the embedded database in ${cfg.dataDir} from ${file}.`);
  if (previous) console.log(`The database it replaced is kept in ${previous} (delete it once you no longer need it).`);
});
