/** Old public paths and where they moved (Drizzle only). */
import { eq } from 'drizzle-orm';
import { db } from '../../db';
import type { Database } from '../../db/client';
import { redirects } from '../../db/schema';

export type Executor = Pick<Database, 'select' | 'insert' | 'update' | 'delete'>;

export async function findRedirect(fromPath: string, ex: Executor = db()): Promise<string | undefined> {
  const [row] = await ex.select({ toPath: redirects.toPath }).from(redirects).where(eq(redirects.fromPath, fromPath)).limit(1);
  return row?.toPath;
}

/**
 * Records that `from` moved to `to`, in the transaction of the rename: earlier paths that led to `from`
 * now lead straight to `to` (a chain collapses to one hop), and `to` itself stops redirecting (a rename
 * back to an old name serves that page again).
 */
export async function addRedirect(ex: Executor, from: string, to: string) {
  if (from === to) return;
  await ex.delete(redirects).where(eq(redirects.fromPath, to));
  await ex.update(redirects).set({ toPath: to }).where(eq(redirects.toPath, from));
  await ex
    .insert(redirects)
    .values({ fromPath: from, toPath: to })
    .onConflictDoUpdate({ target: redirects.fromPath, set: { toPath: to } });
}
