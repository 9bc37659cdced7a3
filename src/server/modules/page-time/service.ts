/**
 * Members' page-time (decision 014): a record the browser's tracker sent, checked against the session and
 * the server's clock, then stored at once (one row per save). The session decides whose time it is; the
 * record's own userId only has to agree with it.
 */
import { capDuration, MIN_DURATION_MS, PAGE_TIME_RATE_LIMIT } from '../../../shared/page-time';
import { pageTimeRecordSchema } from '../../../shared/page-time-schema';
import { consumeRateLimit } from '../rate-limit/service';
import * as repo from './repository';

export type PageTimeResult =
  | { kind: 'recorded'; durationMs: number }
  /** Capped to 1000 ms or less (a stretch that cannot have happened): nothing worth storing. */
  | { kind: 'skipped' }
  | { kind: 'invalid'; message: string; field: string }
  | { kind: 'forbidden' }
  | { kind: 'rate-limited'; retryAfterSeconds: number };

/**
 * `value` is the parsed body, anything at all. Every request of a member counts against their limit, a
 * refused one too: a flood of bad records costs the flooder, not the database.
 */
export async function recordPageTime(value: unknown, member: { id: string }, now = Date.now()): Promise<PageTimeResult> {
  const limit = await consumeRateLimit(`page-views:${member.id}`, PAGE_TIME_RATE_LIMIT, now);
  if (!limit.ok) return { kind: 'rate-limited', retryAfterSeconds: limit.retryAfterSeconds };
  const parsed = pageTimeRecordSchema(now).safeParse(value ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { kind: 'invalid', message: issue?.message ?? 'The record is not valid.', field: String(issue?.path[0] ?? '') };
  }
  const record = parsed.data;
  if (record.userId !== member.id) return { kind: 'forbidden' };
  const durationMs = capDuration(record.duration, record.timestamp, now);
  if (durationMs <= MIN_DURATION_MS) return { kind: 'skipped' };
  await repo.insertPageTime({
    userId: member.id,
    pagePath: record.pagePath,
    durationMs,
    // A timestamp a little ahead (a fast clock, within the allowance) is stored as now.
    at: new Date(Math.min(record.timestamp, now)),
    sessionId: record.sessionId,
  });
  return { kind: 'recorded', durationMs };
}
