/**
 * The random salt of each day (decision 014; days of the site's time zone, decision 032), shared by every
 * server process through analytics_salts: the first process to need a day's salt inserts one, the others
 * read that one. Cached in memory, so a beacon costs a database round trip only on the first view of a day.
 * Salts older than yesterday are deleted at flush time (ingest.ts), after which that day's hashes cannot be
 * recomputed by anyone.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { analyticsSalts } from '../../db/schema';
import { keptPromise } from '../../cache/kept-promise';

const cache = new Map<string, Promise<string>>();

async function loadSalt(database: Database, day: string): Promise<string> {
  await database.insert(analyticsSalts).values({ day, salt: randomBytes(32).toString('base64url') }).onConflictDoNothing();
  const [row] = await database.select({ salt: analyticsSalts.salt }).from(analyticsSalts).where(eq(analyticsSalts.day, day));
  if (!row) throw new Error(`no analytics salt for ${day}`);
  return row.salt;
}

/** The salt of `day` ("2026-11-25"), created on first need. A failed lookup is not cached. */
export function daySalt(database: Database, day: string): Promise<string> {
  return keptPromise(cache, day, () => loadSalt(database, day));
}

/** Forgets the cached salts of days before `oldestKept` (they are deleted from the table too). */
export function forgetSaltsBefore(oldestKept: string) {
  for (const day of cache.keys()) if (day < oldestKept) cache.delete(day);
}

/** Tests: another database, or salts deleted behind the cache's back. */
export function clearSaltCache() {
  cache.clear();
}
