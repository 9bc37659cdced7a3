/**
 * What POST /api/page-views accepts (decision 014): exactly the fields of a PageTimeRecord, each checked.
 * Apart from page-time.ts so the browser's tracker never ships Zod.
 */
import { CLOCK_SKEW_MS, isPageTimePath, MAX_DURATION_MS, MAX_PAGE_PATH_LENGTH, MIN_DURATION_MS, SESSION_ID_PATTERN, type PageTimeRecord } from './page-time';
import { z } from './zod';

/** The largest number any client could mean as a duration or timestamp and PostgreSQL's integer holds. */
const MAX_INT = 2_147_483_647;

/** A stretch begins at most a day before it is sent (MAX_DURATION_MS); a day more for a late beacon. */
const MAX_RECORD_AGE_MS = 2 * MAX_DURATION_MS;

/**
 * A record as sent, checked against the server's clock `now`: unknown fields refused by name; the path a
 * site path; the duration an integer over MIN_DURATION_MS (what the tracker skips, nobody sends); the
 * timestamp an integer ms epoch no later than now (plus CLOCK_SKEW_MS) and
 * at most two days old. The duration is capped
 * afterwards (capDuration), not here: a long stretch is real, only its length is doubted.
 */
export const pageTimeRecordSchema = (now: number) =>
  z.strictObject(
    {
      userId: z.string({ error: 'userId must be a string' }).min(1, 'userId must not be empty').max(64, 'userId is too long'),
      pagePath: z
        .string({ error: 'pagePath must be a path on this site' })
        .max(MAX_PAGE_PATH_LENGTH, `pagePath must be at most ${MAX_PAGE_PATH_LENGTH} characters`)
        .refine(isPageTimePath, 'pagePath must be a path on this site (a leading /, no spaces or markup)'),
      duration: z
        .number({ error: 'duration must be a number of milliseconds' })
        .int('duration must be a whole number of milliseconds')
        .gt(MIN_DURATION_MS, `duration must be more than ${MIN_DURATION_MS} ms`)
        .max(MAX_INT, 'duration is too large'),
      timestamp: z
        .number({ error: 'timestamp must be a time in milliseconds since 1970' })
        .int('timestamp must be a whole number of milliseconds')
        .min(now - MAX_RECORD_AGE_MS, 'timestamp is too long ago')
        .max(now + CLOCK_SKEW_MS, 'timestamp must not be in the future'),
      sessionId: z.string({ error: 'sessionId must be a string' }).regex(SESSION_ID_PATTERN, 'sessionId must be 8 to 64 letters, digits, - or _'),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}` : undefined) },
  ) satisfies z.ZodType<PageTimeRecord>;
