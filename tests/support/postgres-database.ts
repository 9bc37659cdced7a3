/**
 * A new, empty database on the PostgreSQL server `serverUrl` names, for one test file or bench run;
 * drop() removes it (closing whatever is still connected to it).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface ThrowawayDatabase {
  url: string;
  drop(): Promise<void>;
}

async function onServer(serverUrl: string, statement: string) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/**
 * `template` names a database to copy (a migrated one, see global-setup.ts): PostgreSQL copies its files,
 * which takes milliseconds where running every migration again takes about a second.
 */
export async function createPostgresDatabase(serverUrl: string, prefix = 'test', template?: string): Promise<ThrowawayDatabase> {
  const name = `${prefix}_${Date.now()}_${randomBytes(4).toString('hex')}`;
  await onServer(serverUrl, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
