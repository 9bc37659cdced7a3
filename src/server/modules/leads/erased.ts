/**
 * What is kept of an erased person (issue 39, decision 063): a one-way hash of their lower-cased address,
 * never the address. The erase's activity entry is keyed by it (so an import can tell the address was
 * erased and leave it out) and so is their unsubscribe record (so a sequence never mails the address
 * again, however it comes back). The same key is computed here and in SQL, for set queries over columns.
 */
import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { normalizeEmail } from '../../../shared/lead-people';

const PREFIX = 'erased:';

/** "erased:" and the SHA-256 (hex) of the lower-cased address. */
export function erasedKey(email: string): string {
  return PREFIX + createHash('sha256').update(normalizeEmail(email), 'utf8').digest('hex');
}

/** The same key of a lower-cased address in SQL (PostgreSQL's sha256, PGlite's too). */
export function erasedKeySql(lowerCasedEmail: SQL): SQL {
  return sql`(${PREFIX} || encode(sha256(convert_to(${lowerCasedEmail}, 'UTF8')), 'hex'))`;
}
