/**
 * The activity page's reads (src/server/modules/activity): newest first with each change's before and
 * after, the filters of the URL (content type, change, admin, words, one entry), pages of 50, which
 * entries were reverted and by which entry, and the values the filters offer.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertActivity } from '../../src/server/modules/activity/repository';
import { ACTIVITY_PER_PAGE, activityPage, latestActivity } from '../../src/server/modules/activity/service';
import { createRecord, deleteRecord, revertChange, updateRecord } from '../../src/server/modules/content/service';
import { makeAdminByEmail } from '../../src/server/modules/users/service';
import { createAuthHarness, type AuthHarness } from '../support/auth';

let h: AuthHarness;
let owner: string;
let staff: string;
beforeEach(async () => {
  h = await createAuthHarness();
  owner = (await h.signUpVerified({ email: 'owner@example.com' })).userId;
  staff = (await h.signUpVerified({ email: 'staff@example.com' })).userId;
  await makeAdminByEmail('staff@example.com');
});
afterEach(() => h.close());

const service = (name: string, extra: Record<string, unknown> = {}) => ({ name, shortText: `${name} in short`, price: 500, ...extra });

/** Owner creates and edits "Lead outreach"; staff creates and deletes "Reminders 100%". */
async function history() {
  const created = await createRecord(owner, 'service', service('Lead outreach'));
  await updateRecord(owner, 'service', created.id, { version: created.snapshot!.updatedAt, fields: service('Lead outreach', { price: 650 }) });
  const other = await createRecord(staff, 'service', service('Reminders 100%'));
  await deleteRecord(staff, 'service', other.id);
}

const summaries = (rows: { summary: string }[]) => rows.map((r) => r.summary);

describe('activityPage', () => {
  it('lists every change newest first, with who, what and the record before and after', async () => {
    await history();
    const page = await activityPage({}, 1);
    expect(page.total).toBe(4);
    expect(page.pages).toBe(1);
    expect(summaries(page.rows)).toEqual([
      'Deleted service “Reminders 100%”',
      'Created service “Reminders 100%”',
      'Updated service “Lead outreach”: price',
      'Created service “Lead outreach”',
    ]);
    const update = page.rows[2]!;
    expect(update).toMatchObject({ action: 'update', entityType: 'service', entityId: 'lead-outreach', actorEmail: 'owner@example.com', actorId: owner });
    expect(update.before).toMatchObject({ price: 500 });
    expect(update.after).toMatchObject({ price: 650 });
    expect(page.rows[0]!.after).toBeNull();
    expect(page.facets).toEqual({ types: ['service'], actions: ['create', 'delete', 'update'], admins: ['owner@example.com', 'staff@example.com'] });
  });

  it('filters by content type, change, admin and words (case-insensitive, % and _ taken literally)', async () => {
    await history();
    await insertActivity(h.handle.db, { actorId: owner, actorEmail: 'owner@example.com', action: 'import', entityType: 'content', entityId: 'backup.json', summary: 'Imported backup.json: 1 service' });

    expect(summaries((await activityPage({ entityType: 'content' }, 1)).rows)).toEqual(['Imported backup.json: 1 service']);
    expect(summaries((await activityPage({ action: 'create' }, 1)).rows)).toEqual(['Created service “Reminders 100%”', 'Created service “Lead outreach”']);
    expect((await activityPage({ actorEmail: 'staff@example.com' }, 1)).rows.map((r) => r.action)).toEqual(['delete', 'create']);
    expect((await activityPage({ entityType: 'service', action: 'update', actorEmail: 'owner@example.com' }, 1)).total).toBe(1);
    expect(summaries((await activityPage({ q: 'LEAD OUT' }, 1)).rows)).toHaveLength(2);
    expect((await activityPage({ q: 'reminders-100' }, 1)).total).toBe(2); // the record's id
    expect((await activityPage({ q: '100%' }, 1)).total).toBe(2);
    expect((await activityPage({ q: '%' }, 1)).total).toBe(2); // not "everything"
    expect((await activityPage({ q: 'lead_outreach' }, 1)).total).toBe(0);
    expect((await activityPage({ actorEmail: 'nobody@example.com' }, 1)).total).toBe(0);
  });

  it('shows one entry by id, whatever else is asked', async () => {
    await history();
    const [first] = (await activityPage({}, 1)).rows;
    const one = await activityPage({ id: first!.id, entityType: 'article' }, 1);
    expect(one.total).toBe(1);
    expect(one.rows[0]!.id).toBe(first!.id);
    expect((await activityPage({ id: crypto.randomUUID() }, 1)).total).toBe(0);
  });

  it('pages by 50, newest first across pages', async () => {
    for (let i = 0; i < ACTIVITY_PER_PAGE + 5; i++) {
      await insertActivity(h.handle.db, {
        actorId: owner,
        actorEmail: 'owner@example.com',
        action: 'update',
        entityType: 'faq',
        entityId: `faq-${i}`,
        summary: `Change ${i}`,
      });
    }
    const first = await activityPage({}, 1);
    const second = await activityPage({}, 2);
    expect([first.total, first.pages, first.rows.length, second.rows.length]).toEqual([55, 2, 50, 5]);
    const ids = [...first.rows, ...second.rows].map((r) => r.id);
    expect(new Set(ids).size).toBe(55);
    const times = [...first.rows, ...second.rows].map((r) => r.at.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect((await activityPage({}, 3)).rows).toEqual([]);
  });

  it('says which entries were reverted and by which entry; the revert points back', async () => {
    await history();
    const update = (await activityPage({ action: 'update' }, 1)).rows[0]!;
    const reverted = await revertChange(owner, update.id);
    expect(reverted.id).toBe('lead-outreach');
    const page = await activityPage({}, 1);
    const revert = page.rows[0]!;
    expect(revert).toMatchObject({ action: 'revert', revertOf: update.id, summary: 'Reverted changes to “Lead outreach”' });
    expect(page.revertedBy.get(update.id)).toBe(revert.id);
    expect(page.revertedBy.size).toBe(1);
  });
});

describe('latestActivity', () => {
  it('the overview’s newest entries, without the documents', async () => {
    await history();
    const latest = await latestActivity(3);
    expect(summaries(latest)).toEqual(['Deleted service “Reminders 100%”', 'Created service “Reminders 100%”', 'Updated service “Lead outreach”: price']);
    expect(latest[0]).not.toHaveProperty('before');
  });
});
