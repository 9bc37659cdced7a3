/**
 * Fixed-window rate limits for our own public writes (the audit form, the chat), counted in the database
 * so they hold across restarts and several server processes. Rows share better-auth's rate_limits table
 * under an "app:" key prefix (its own keys never start so); here last_request holds the window's start.
 */
import { sql } from 'drizzle-orm';
import { db } from '../../db';

export interface RateRule {
  /** Requests allowed in one window. */
  max: number;
  windowSeconds: number;
}

export type RateDecision = { ok: true; remaining: number } | { ok: false; retryAfterSeconds: number };

/**
 * Counts one request against `key` (e.g. "audit:203.0.113.7") and says whether it is allowed. Atomic: two
 * requests at once cannot both take the last slot.
 */
export async function consumeRateLimit(key: string, rule: RateRule, now = Date.now()): Promise<RateDecision> {
  const windowMs = rule.windowSeconds * 1000;
  const fullKey = `app:${key}`;
  const result = (await db().execute(sql`
    insert into rate_limits (id, key, count, last_request) values (${crypto.randomUUID()}, ${fullKey}, 1, ${now})
    on conflict (key) do update set
      count = case when rate_limits.last_request <= ${now - windowMs} then 1 else rate_limits.count + 1 end,
      last_request = case when rate_limits.last_request <= ${now - windowMs} then ${now} else rate_limits.last_request end
    returning count, last_request as window_start`)) as unknown as { rows: { count: number | string; window_start: number | string }[] };
  const row = result.rows[0]!;
  const count = Number(row.count);
  if (count <= rule.max) return { ok: true, remaining: rule.max - count };
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((Number(row.window_start) + windowMs - now) / 1000)) };
}
