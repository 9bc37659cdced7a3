/**
 * The Firebase project's password-hash parameters (signer key, salt separator, rounds, mem_cost), stored
 * once in app_config under 'firebaseAuthHash' by the Firebase importer and read by sign-in to verify the
 * `$firebase-scrypt$` hashes moved in with the members (decision 015). Server-only: the signer key never
 * leaves the server, and neither it nor a hash is ever logged.
 */
import { eq } from 'drizzle-orm';
import {
  storedFirebaseHashConfigSchema,
  toStoredConfig,
  type FirebaseHashConfig,
} from '../../auth/firebase-password';
import { db } from '../../db';
import type { Database } from '../../db/client';
import { appConfig } from '../../db/schema';

export const FIREBASE_HASH_CONFIG_KEY = 'firebaseAuthHash';

/**
 * A found config is kept for a minute (several processes on PostgreSQL converge within it); "none" is not
 * kept, so a config the importer saves from another process is seen at the next sign-in.
 */
const TTL_MS = 60_000;
let memo: { database: Database; at: number; value: Promise<FirebaseHashConfig | undefined> } | undefined;

async function read(database: Database): Promise<FirebaseHashConfig | undefined> {
  const [row] = await database.select({ value: appConfig.value }).from(appConfig).where(eq(appConfig.key, FIREBASE_HASH_CONFIG_KEY));
  if (row === undefined) return undefined;
  const parsed = storedFirebaseHashConfigSchema.safeParse(row.value);
  // The value is not logged: it holds the signer key.
  if (!parsed.success) throw new Error(`app_config '${FIREBASE_HASH_CONFIG_KEY}' is not a valid Firebase hash config`);
  return parsed.data;
}

/** The project's config, or undefined when none was imported. Rejects when the stored value is invalid. */
export function firebaseHashConfig(database: Database = db()): Promise<FirebaseHashConfig | undefined> {
  const now = Date.now();
  if (memo && memo.database === database && now - memo.at < TTL_MS) return memo.value;
  const value = read(database);
  const entry = { database, at: now, value };
  memo = entry;
  const forget = () => {
    if (memo === entry) memo = undefined;
  };
  value.then((found) => found ?? forget(), forget);
  return value;
}

/** For the importer: stores (or replaces) the project's config and drops the memo. */
export async function saveFirebaseHashConfig(config: FirebaseHashConfig, database: Database = db()): Promise<void> {
  const value = toStoredConfig(config);
  await database
    .insert(appConfig)
    .values({ key: FIREBASE_HASH_CONFIG_KEY, value })
    .onConflictDoUpdate({ target: appConfig.key, set: { value, updatedAt: new Date() } });
  memo = undefined;
}
