import { eq } from 'drizzle-orm';
import { db } from '../../db';
import { appConfig } from '../../db/schema';

/** The document stored under `key` in the app config table, or undefined when there is none. */
export async function readConfigDocument(key: string): Promise<unknown> {
  const [row] = await db().select({ value: appConfig.value }).from(appConfig).where(eq(appConfig.key, key));
  return row?.value;
}

export async function writeConfigDocument(key: string, value: unknown): Promise<void> {
  await db()
    .insert(appConfig)
    .values({ key, value })
    .onConflictDoUpdate({ target: appConfig.key, set: { value, updatedAt: new Date() } });
}
