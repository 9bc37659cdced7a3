/**
 * Merging two people (issue 39) on both engines: the same person under two addresses becomes one under the
 * address kept — lead events, audit requests (with the profile), chats, notes, bookings and sequences move;
 * stage, owner and follow-up combine; one activity entry; the other address stays as an alias, so a later
 * lead event with it joins the person and its mails stay on their timeline; erasing the person afterwards
 * takes the other address's traces too. Refusals: the same address, an address that is no lead, a member
 * account on the address merged away, anyone but an admin.
 */
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activityLog, bookings, leadAliases, leadSequenceEnrollments } from '../../src/server/db/schema';
import { submitAuditRequest } from '../../src/server/modules/audit/service';
import { saveChatContact } from '../../src/server/modules/chat/service';
import { erasePerson } from '../../src/server/modules/leads/erase';
import { mergePeople, mergePreview } from '../../src/server/modules/leads/merge';
import { findPerson, personAliases, personTimeline } from '../../src/server/modules/leads/people';
import { addLeadNote, assignLead, leadWorkOf, setFollowUp, setLeadStage, siteToday } from '../../src/server/modules/leads/work';
import { saveQuietHours, saveSequence } from '../../src/server/modules/lead-sequences/service';
import { auditSubmissionOf } from '../../src/shared/schemas/audit';
import { createAuthHarness, randomIp, type AuthHarness } from '../support/auth';
import { quietHoursAwayFrom } from '../support/quiet-hours';

let h: AuthHarness;
let admin: string;
const HOUR = 3_600_000;
const KEEP = 'ada@example.com';
const OTHER = 'ada.work@example.com';

beforeEach(async () => {
  h = await createAuthHarness();
  ({ userId: admin } = await h.signUpVerified({ email: 'owner@example.com', firstName: 'Olivia', lastName: 'Owner' }));
  await saveQuietHours(admin, quietHoursAwayFrom(new Date()));
});
afterEach(() => h.close());

async function requestAudit(email: string, businessName: string) {
  const fields = { fullName: 'Ada Lovelace', email, businessName, website: '', phone: '', businessType: 'clinic', goals: ['more-leads'], message: '', consent: true };
  const result = await submitAuditRequest(auditSubmissionOf(fields), { clientIp: randomIp(), userId: undefined });
  if (result.kind !== 'accepted') throw new Error('not accepted');
}
const chatContact = (email: string) =>
  saveChatContact({ name: 'Ada at work', email, followUps: true }, { identity: { visitorKey: `key-${crypto.randomUUID()}`, userId: null }, clientIp: randomIp() });
const dayAfter = (day: string, n: number) => new Date(Date.parse(`${day}T12:00:00Z`) + n * 24 * HOUR).toISOString().slice(0, 10);

describe('merging two people', () => {
  it('moves everything onto the address kept, combines the working state, logs it once and keeps the other address as an alias', async () => {
    await saveSequence(admin, 'chat-lead', { active: true, steps: [{ delayDays: 2, subject: 'Hi', body: 'Hello' }] });
    await requestAudit(KEEP, 'Lovelace Clinic');
    await addLeadNote(admin, KEEP, 'Prefers email');
    await chatContact(OTHER);
    await setLeadStage(admin, OTHER, 'contacted');
    await assignLead(admin, OTHER, admin);
    const today = await siteToday();
    await setFollowUp(admin, OTHER, dayAfter(today, 3));
    await addLeadNote(admin, OTHER, 'Met at the fair');
    await h.handle.db.insert(bookings).values({ id: crypto.randomUUID(), provider: 'webhook', externalId: crypto.randomUUID(), email: OTHER, startsAt: new Date(Date.now() + 48 * HOUR), status: 'cancelled' });
    const otherTimeline = (await personTimeline(OTHER)).entries.length;

    const preview = await mergePreview(admin, KEEP, OTHER.toUpperCase());
    expect(preview).toEqual({ leadEvents: 1, auditRequests: 0, conversations: 1, notes: 1, bookings: 1, sequenceEnrolments: 1 });
    expect(await mergePeople(admin, KEEP, OTHER)).toEqual(preview);

    expect(await findPerson(OTHER)).toBeUndefined();
    const person = await findPerson(KEEP);
    expect(person?.counts).toMatchObject({ 'audit-request': 1, 'chat-lead': 1 });
    expect(person?.profile.businessName).toBe('Lovelace Clinic');
    const work = await leadWorkOf(KEEP);
    expect(work).toMatchObject({ stage: 'contacted', ownerId: admin, followUpOn: dayAfter(today, 3) });
    expect(work.notes.map((n) => n.body).sort()).toEqual(['Met at the fair', 'Prefers email']);
    expect(await h.handle.db.select({ email: bookings.email }).from(bookings)).toEqual([{ email: KEEP }]);
    expect((await h.handle.db.select().from(leadSequenceEnrollments)).map((e) => e.email)).toEqual([KEEP]);
    // One timeline: everything both had (the other's mails through the alias), plus the merge.
    const timeline = (await personTimeline(KEEP)).entries;
    expect(timeline.length).toBeGreaterThanOrEqual(otherTimeline);
    expect(timeline.some((e) => e.type === 'lead-note' && e.body === 'Met at the fair')).toBe(true);
    const entries = await h.handle.db.select().from(activityLog).where(eq(activityLog.action, 'merge'));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ entityType: 'lead', entityId: KEEP, summary: `Merged ${OTHER} into ${KEEP}`, after: preview });
    expect(await personAliases(KEEP)).toEqual([OTHER]);

    // Later, with the other address: the same person.
    await chatContact(OTHER.toUpperCase());
    expect(await findPerson(OTHER)).toBeUndefined();
    expect((await findPerson(KEEP))?.counts['chat-lead']).toBe(2);
  });

  it('the kept person’s stage and owner win where they have one; the sooner follow-up day stays', async () => {
    await requestAudit(KEEP, 'Lovelace Clinic');
    await requestAudit(OTHER, 'Lovelace Works');
    const today = await siteToday();
    await setLeadStage(admin, KEEP, 'client');
    await setFollowUp(admin, KEEP, dayAfter(today, 5));
    await setLeadStage(admin, OTHER, 'contacted');
    await setFollowUp(admin, OTHER, dayAfter(today, 1));
    await mergePeople(admin, KEEP, OTHER);
    expect(await leadWorkOf(KEEP)).toMatchObject({ stage: 'client', ownerId: null, followUpOn: dayAfter(today, 1) });
    // Both requests are the person's now; the profile is the newest request's.
    expect((await findPerson(KEEP))?.counts['audit-request']).toBe(2);
    expect((await findPerson(KEEP))?.profile.businessName).toBe('Lovelace Works');
  });

  it('erasing the merged person takes the other address too: no table holds it afterwards', async () => {
    await requestAudit(KEEP, 'Lovelace Clinic');
    await chatContact(OTHER);
    await mergePeople(admin, KEEP, OTHER);
    /** The tables with a row naming either address. */
    const holding = async () => {
      const { rows: tables } = (await h.handle.db.execute(sql`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`)) as unknown as { rows: { table_name: string }[] };
      const found: string[] = [];
      for (const { table_name: table } of tables) {
        const { rows } = (await h.handle.db.execute(sql`select row_to_json(t)::text as row from ${sql.identifier(table)} t`)) as unknown as { rows: { row: string }[] };
        if (rows.some((r) => r.row.toLowerCase().includes('ada.work@') || r.row.toLowerCase().includes('ada@example'))) found.push(table);
      }
      return found;
    };
    expect(await holding()).toEqual(expect.arrayContaining(['lead_aliases', 'chat_conversations', 'lead_events']));
    await erasePerson(admin, KEEP);
    expect(await holding()).toEqual([]);
    expect(await h.handle.db.select().from(leadAliases)).toEqual([]);
  });

  it('refuses the same address, an address that is no lead, a member account merged away, a bad address and anyone but an admin', async () => {
    await requestAudit(KEEP, 'Lovelace Clinic');
    await chatContact(OTHER);
    await expect(mergePeople(admin, KEEP, ` ${KEEP.toUpperCase()} `)).rejects.toMatchObject({ code: 'INVALID', fieldErrors: { other: 'Pick another person: this is the same address.' } });
    await expect(mergePeople(admin, KEEP, 'nobody@example.com')).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'No lead has the address nobody@example.com.' });
    await expect(mergePreview(admin, KEEP, 'not an address')).rejects.toMatchObject({ code: 'INVALID', fieldErrors: { other: 'Type an email address, like name@example.com.' } });
    const { userId: member } = await h.signUpVerified({ email: 'member@example.com', firstName: 'Mia', lastName: 'Member' });
    await expect(mergePeople(admin, KEEP, 'member@example.com')).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('member@example.com has a member account') });
    await expect(mergePeople(member, KEEP, OTHER)).rejects.toMatchObject({ code: 'NOT_ADMIN' });
    expect(await findPerson(OTHER)).toBeDefined();
    expect(await h.handle.db.select().from(leadAliases)).toEqual([]);
  });
});
