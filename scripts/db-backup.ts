/**
 * `npm run db:backup [-- <file>]`: a backup of the configured database (docs/decisions/025). Embedded
 * database: only while the server is stopped. PostgreSQL: pg_dump, while the site runs.
 */
import { backupPglite, backupPostgres, defaultBackupFile } from '../src/server/db/backup';
import { runBackupCommand } from './db-backup-command';

await runBackupCommand(async (cfg, file) => {
  const target = file ?? defaultBackupFile(cfg.DATABASE_URL ? 'postgres' : 'pglite');
  if (cfg.DATABASE_URL) await backupPostgres(cfg.DATABASE_URL, target);
  else await backupPglite(cfg.dataDir, target);
  console.log(`Backed up the ${cfg.DATABASE_URL ? 'PostgreSQL' : 'embedded'} database to ${target}`);
});
