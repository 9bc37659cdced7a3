/** The media table: content-addressed image bytes. Drizzle only. */
import { eq, inArray, sql } from 'drizzle-orm';
import { db } from '../db';
import type { Database } from '../db/client';
import { media, type Media } from '../db/schema';

export type NewMedia = typeof media.$inferInsert;

/** Inserts images; an id already stored is the same bytes (content hash), so only its alt text is refreshed. */
export async function upsertMedia(rows: readonly NewMedia[], executor: Database = db()): Promise<void> {
  // A few images per statement: each row carries up to megabytes of bytes.
  for (let i = 0; i < rows.length; i += 16) {
    await executor
      .insert(media)
      .values(rows.slice(i, i + 16))
      .onConflictDoUpdate({ target: media.id, set: { alt: sql`excluded.alt` } });
  }
}

export async function findMedia(id: string): Promise<Media | undefined> {
  const [row] = await db().select().from(media).where(eq(media.id, id));
  return row;
}

/** Which of `ids` are stored. */
export async function existingMediaIds(ids: readonly string[], executor: Database = db()): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await executor.select({ id: media.id }).from(media).where(inArray(media.id, [...ids]));
  return new Set(rows.map((r) => r.id));
}
