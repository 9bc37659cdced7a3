/**
 * A person's other addresses (issue 39): an address merged into a person is an alias of theirs, and a lead
 * event that comes later with it is recorded under the person's address. Data access only; no other module
 * of the leads imported here, so the one writer of lead events (audit/repository.ts) may use it.
 */
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { leadAliases } from '../../db/schema';
import { normalizeEmail } from '../../../shared/lead-people';

type Reader = Pick<Database, 'select'>;

/** The address a lead event of `email` is recorded under: the person it was merged into, else itself (lower-cased). */
export async function personAddressOf(email: string, ex: Reader): Promise<string> {
  const key = normalizeEmail(email);
  const [row] = await ex.select({ email: leadAliases.email }).from(leadAliases).where(eq(leadAliases.alias, key));
  return row?.email ?? email;
}

/** The other addresses of a person (merged into them), in order. */
export async function aliasesOf(email: string, ex: Reader): Promise<string[]> {
  return (await ex.select({ alias: leadAliases.alias }).from(leadAliases).where(eq(leadAliases.email, email)).orderBy(leadAliases.alias)).map((r) => r.alias);
}
