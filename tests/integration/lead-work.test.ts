/**
 * Working a lead (issue 23, src/server/modules/leads/work.ts): stage, owner, follow-up day and notes on a
 * person; each change an admin write with its activity log entry and its line on the person's timeline;
 * the leads list filtered and sorted by them, the CSV carrying them, and the overview's follow-ups due.
 */
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activityLog, leadEvents, leadPeople } from '../../src/server/db/schema';
import { exportPeopleCsv, listPeople, personTimeline } from '../../src/server/modules/leads/people';
import { addLeadNote, assignLead, followUpsDue, leadWorkOf, setFollowUp, setLeadStage, siteToday } from '../../src/server/modules/leads/work';
import { addDays } from '../../src/shared/dates';
import { peopleQueryOf } from '../../src/shared/lead-people';
import { createAuthHarness, type AuthHarness } from '../support/auth';

let h: AuthHarness;
let admin: string;
let member: string;
const ADA = 'ada@example.com';

beforeEach(async () => {
  h = await createAuthHarness();
  // The first verified account is the admin; both sign-ups are lead events, the admin's the team's own.
  ({ userId: admin } = await h.signUpVerified({ email: 'owner@example.com' }));
  ({ userId: member } = await h.signUpVerified({ email: ADA }));
});
afterEach(() => h.close());

const entries = (action: string) => h.handle.db.select().from(activityLog).where(and(eq(activityLog.entityType, 'lead'), eq(activityLog.action, action)));
const list = async (params: Record<string, string> = {}, actorId: string | undefined = admin) =>
  listPeople(peopleQueryOf(new URLSearchParams(params)), { actorId, today: await siteToday() });

async function lead(email: string, name = '') {
  await h.handle.db.insert(leadEvents).values({ id: crypto.randomUUID(), kind: 'audit-request', email, name });
}

describe('the stage', () => {
  it('moves any way, is the activity log’s with before and after, and records nothing when unchanged', async () => {
    await expect(setLeadStage(admin, 'ADA@Example.com', 'contacted')).resolves.toEqual({ changed: true });
    await expect(setLeadStage(admin, ADA, 'contacted')).resolves.toEqual({ changed: false });
    await setLeadStage(admin, ADA, 'new');
    const logged = await entries('stage');
    expect(logged.map((e) => [e.entityId, e.before, e.after, e.actorEmail])).toEqual(
      expect.arrayContaining([
        [ADA, { stage: 'new' }, { stage: 'contacted' }, 'owner@example.com'],
        [ADA, { stage: 'contacted' }, { stage: 'new' }, 'owner@example.com'],
      ]),
    );
    expect(logged).toHaveLength(2);
    expect((await leadWorkOf(ADA)).stage).toBe('new');
  });

  it('is the admins’ only, and only for people who are leads', async () => {
    await expect(setLeadStage(member, ADA, 'client')).rejects.toMatchObject({ code: 'NOT_ADMIN' });
    await expect(setLeadStage(undefined, ADA, 'client')).rejects.toThrow();
    await expect(setLeadStage(admin, 'nobody@example.com', 'client')).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'No lead has this email address.' });
    // The team is not a lead of its own.
    await expect(setLeadStage(admin, 'owner@example.com', 'client')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await h.handle.db.select().from(leadPeople)).toEqual([]);
  });
});

describe('the owner', () => {
  it('is an admin or nobody; a member cannot own a lead', async () => {
    await expect(assignLead(admin, ADA, member)).rejects.toMatchObject({ code: 'INVALID', fieldErrors: { ownerId: 'Only an admin can own a lead' } });
    await expect(assignLead(admin, ADA, admin)).resolves.toEqual({ changed: true });
    await expect(assignLead(admin, ADA, null)).resolves.toEqual({ changed: true });
    expect((await entries('owner')).map((e) => [e.before, e.after])).toEqual(
      expect.arrayContaining([
        [{ owner: null }, { owner: 'owner@example.com' }],
        [{ owner: 'owner@example.com' }, { owner: null }],
      ]),
    );
  });
});

describe('the follow-up day', () => {
  it('is a real day, today or later in the site’s time zone, or none', async () => {
    const today = await siteToday();
    for (const bad of ['tomorrow', '2026-02-30', '26-12-01', 12]) {
      await expect(setFollowUp(admin, ADA, bad)).rejects.toMatchObject({ code: 'INVALID', fieldErrors: { followUpOn: 'Enter a date such as 2026-12-01' } });
    }
    await expect(setFollowUp(admin, ADA, addDays(today, -1))).rejects.toMatchObject({ code: 'INVALID', fieldErrors: { followUpOn: expect.stringMatching(/^Choose today \(.+\) or a later day$/) } });
    await expect(setFollowUp(admin, ADA, today)).resolves.toEqual({ changed: true });
    await expect(setFollowUp(admin, ADA, addDays(today, 3))).resolves.toEqual({ changed: true });
    await expect(setFollowUp(admin, ADA, null)).resolves.toEqual({ changed: true });
    expect((await leadWorkOf(ADA)).followUpOn).toBeNull();
    expect((await entries('follow-up')).map((e) => e.after)).toEqual(expect.arrayContaining([{ followUpOn: today }, { followUpOn: addDays(today, 3) }, { followUpOn: null }]));
  });
});

describe('notes', () => {
  it('are checked, kept as typed (markup is text), oldest first on the panel', async () => {
    await expect(addLeadNote(admin, ADA, '   ')).rejects.toMatchObject({ code: 'INVALID', fieldErrors: { body: 'Note must not be empty' } });
    await expect(addLeadNote(admin, ADA, 'x'.repeat(5001))).rejects.toMatchObject({ fieldErrors: { body: 'Note must be at most 5000 characters' } });
    await addLeadNote(admin, ADA, 'Called, <b>no answer</b>.');
    await addLeadNote(admin, ADA, 'Sent the audit link again.');
    const { notes } = await leadWorkOf(ADA);
    expect(notes.map((n) => n.body)).toEqual(['Called, <b>no answer</b>.', 'Sent the audit link again.']);
    await expect(addLeadNote(member, ADA, 'member note')).rejects.toMatchObject({ code: 'NOT_ADMIN' });
  });
});

describe('the timeline', () => {
  it('shows each change and note, newest first, with who made it', async () => {
    const today = await siteToday();
    await setLeadStage(admin, ADA, 'contacted');
    await assignLead(admin, ADA, admin);
    await setFollowUp(admin, ADA, today);
    await addLeadNote(admin, ADA, 'Wants a call next week.');
    const { entries: timeline } = await personTimeline(ADA);
    const work = timeline.filter((e) => e.type.startsWith('lead-'));
    expect(work.map((e) => e.type)).toEqual(['lead-note', 'lead-follow-up', 'lead-owner', 'lead-stage']);
    expect(work[0]).toMatchObject({ authorName: expect.any(String), body: 'Wants a call next week.' });
    expect(work[1]).toMatchObject({ to: today, actorName: 'Ada Lovelace' }); // named as the account is, not by its email
    expect(work[2]).toMatchObject({ to: 'owner@example.com' });
    expect(work[3]).toMatchObject({ from: 'new', to: 'contacted' });
  });
});

describe('the leads list and the overview', () => {
  beforeEach(async () => {
    await lead('bea@example.com', 'Bea');
    await lead('cal@example.com', 'Cal');
  });

  it('filters by stage (a person never touched is new), owner (me, nobody, an admin) and follow-up due', async () => {
    const today = await siteToday();
    await setLeadStage(admin, 'bea@example.com', 'call-booked');
    await assignLead(admin, 'bea@example.com', admin);
    await setFollowUp(admin, 'cal@example.com', today);
    await setFollowUp(admin, ADA, addDays(today, 2));
    const emails = async (params: Record<string, string>, actorId?: string) => (await list(params, actorId)).rows.map((r) => r.email).sort();

    expect(await emails({ stage: 'call-booked' })).toEqual(['bea@example.com']);
    expect(await emails({ stage: 'new' })).toEqual([ADA, 'cal@example.com']);
    expect(await emails({ owner: 'me' })).toEqual(['bea@example.com']);
    expect(await emails({ owner: admin })).toEqual(['bea@example.com']);
    expect(await emails({ owner: 'none' })).toEqual([ADA, 'cal@example.com']);
    expect(await emails({ due: '1' })).toEqual(['cal@example.com']);
    expect(await emails({ stage: 'new', due: '1' })).toEqual(['cal@example.com']);
    // An unknown stage or owner value is no filter, never an error.
    expect(await emails({ stage: 'bogus' })).toHaveLength(3);

    const row = (await list({ stage: 'call-booked' })).rows[0]!;
    expect(row.work).toEqual({ stage: 'call-booked', ownerId: admin, ownerName: expect.any(String), followUpOn: null });
  });

  it('sorts by follow-up day, the most overdue first, people without one last', async () => {
    const today = await siteToday();
    await setFollowUp(admin, 'bea@example.com', addDays(today, 5));
    await setFollowUp(admin, 'cal@example.com', today);
    // Overdue: set days ago (the service only sets today or later).
    await h.handle.db.update(leadPeople).set({ followUpOn: addDays(today, -3) }).where(eq(leadPeople.email, 'cal@example.com'));
    expect((await list({ sort: 'follow-up' })).rows.map((r) => r.email)).toEqual(['cal@example.com', 'bea@example.com', ADA]);

    const due = await followUpsDue();
    expect(due).toMatchObject({ today, total: 1, rows: [{ email: 'cal@example.com', name: 'Cal', followUpOn: addDays(today, -3), stage: 'new', ownerName: null }] });
  });

  it('puts stage, owner and follow-up in the CSV, filtered like the list', async () => {
    await setLeadStage(admin, 'bea@example.com', 'client');
    await assignLead(admin, 'bea@example.com', admin);
    const csv = await exportPeopleCsv(admin, peopleQueryOf(new URLSearchParams({ stage: 'client' })));
    const [header, ...rows] = csv.trim().split(/\r?\n/);
    expect(header!.split(',').slice(0, 6)).toEqual(['Email', 'Name', 'Member', 'Stage', 'Owner', 'Follow up on']);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.split(',').slice(0, 5)).toEqual(['bea@example.com', 'Bea', 'no', 'Client', expect.any(String)]);
  });
});
