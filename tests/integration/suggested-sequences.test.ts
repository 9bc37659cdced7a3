/**
 * The suggested follow-up sequences a new site starts with (migrations 0019 and 0021): all off, and the
 * audit-request one starts on day 1, so its first mail never goes out in the same second as the request's
 * confirmation (issue 35).
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/server/db/client';
import { leadSequences } from '../../src/server/db/schema';
import { freshDatabase } from '../support/db';

let handle: DatabaseHandle;
beforeEach(async () => {
  handle = await freshDatabase();
});
afterEach(() => handle.close());

it('are off, and the audit request’s starts on day 1', async () => {
  const rows = await handle.db.select().from(leadSequences);
  expect(rows.map((r) => [r.trigger, r.active]).sort()).toEqual([
    ['audit-requested', false],
    ['chat-lead', false],
    ['report-sent', false],
  ]);
  const audit = rows.find((r) => r.trigger === 'audit-requested')!;
  expect(audit.steps.map((s) => s.delayDays)).toEqual([1, 2, 5]);
});
