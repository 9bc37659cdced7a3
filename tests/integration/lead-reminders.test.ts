/**
 * The morning reminder of follow-ups due (issue 23, src/server/modules/leads/reminders.ts): one email per
 * owner per day, listing the leads they own that fall due that day, never twice for the same day, and the
 * day's job queueing the next day's at its morning.
 */
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jobs, leadEvents, mailQueue, users } from '../../src/server/db/schema';
import { runDueJobs } from '../../src/server/jobs/queue';
import { REMINDER_HOUR, REMINDER_JOB, reminderTime, scheduleReminders, sendFollowUpReminders } from '../../src/server/modules/leads/reminders';
import { assignLead, setFollowUp, siteToday } from '../../src/server/modules/leads/work';
import { addDays } from '../../src/shared/dates';
import { createAuthHarness, type AuthHarness } from '../support/auth';

let h: AuthHarness;
let admin: string;
let today: string;

beforeEach(async () => {
  h = await createAuthHarness();
  ({ userId: admin } = await h.signUpVerified({ email: 'owner@example.com', firstName: 'Olive', lastName: 'Owner' }));
  today = await siteToday();
  for (const [email, name] of [
    ['ada@example.com', 'Ada'],
    ['bea@example.com', 'Bea <b>B</b>'],
    ['cal@example.com', 'Cal'],
    ['dee@example.com', 'Dee'],
  ] as const) {
    await h.handle.db.insert(leadEvents).values({ id: crypto.randomUUID(), kind: 'audit-request', email, name });
  }
  // Ada and Bea are the owner's and due today; Cal is the owner's but due tomorrow; Dee is due today, owned by nobody.
  for (const email of ['ada@example.com', 'bea@example.com', 'cal@example.com']) await assignLead(admin, email, admin);
  await setFollowUp(admin, 'ada@example.com', today);
  await setFollowUp(admin, 'bea@example.com', today);
  await setFollowUp(admin, 'cal@example.com', addDays(today, 1));
  await setFollowUp(admin, 'dee@example.com', today);
});
afterEach(() => h.close());

const reminders = () => h.handle.db.select().from(mailQueue).where(eq(mailQueue.kind, 'lead-reminder'));

describe('the morning reminder', () => {
  it('is one email to the owner listing the leads due that day, with links, never sent twice', async () => {
    await expect(sendFollowUpReminders(today)).resolves.toBe(1);
    const [mail, ...others] = await reminders();
    expect(others).toEqual([]);
    expect(mail!.to).toBe('owner@example.com');
    expect(mail!.subject).toMatch(/^2 follow-ups due today — /);
    expect(mail!.text).toContain('Hello Olive Owner,');
    expect(mail!.text).toContain('Ada <ada@example.com> (New): http://');
    expect(mail!.text).toContain('/admin/leads/');
    expect(mail!.text).toContain('/admin/leads?owner=me&due=1&sort=follow-up');
    expect(mail!.text).not.toContain('cal@example.com');
    expect(mail!.text).not.toContain('dee@example.com');
    // A name typed by a visitor is text in the HTML part.
    expect(mail!.html).toContain('Bea &lt;b&gt;B&lt;/b&gt;');

    await expect(sendFollowUpReminders(today)).resolves.toBe(0);
    expect(await reminders()).toHaveLength(1);
  });

  it('skips an owner who is no longer an admin', async () => {
    await h.handle.db.update(users).set({ role: 'user' }).where(eq(users.id, admin));
    await expect(sendFollowUpReminders(today)).resolves.toBe(0);
    expect(await reminders()).toEqual([]);
  });

  it('runs as the day’s job at the morning, once however often it is queued, and queues the next day’s', async () => {
    await scheduleReminders(today, 'UTC');
    await scheduleReminders(today, 'UTC');
    const queued = await h.handle.db.select().from(jobs).where(eq(jobs.kind, REMINDER_JOB));
    expect(queued.map((j) => [j.id, j.runAt.toISOString()])).toEqual([[`${REMINDER_JOB}:${today}`, `${today}T${String(REMINDER_HOUR).padStart(2, '0')}:00:00.000Z`]]);

    // Not before the morning.
    await runDueJobs({ kinds: [REMINDER_JOB], now: () => new Date(reminderTime(today, 'UTC').getTime() - 60_000) });
    expect(await reminders()).toEqual([]);
    await runDueJobs({ kinds: [REMINDER_JOB], now: () => new Date(reminderTime(today, 'UTC').getTime() + 60_000) });
    expect(await reminders()).toHaveLength(1);
    const tomorrow = addDays(today, 1);
    const [next] = await h.handle.db.select().from(jobs).where(and(eq(jobs.kind, REMINDER_JOB), eq(jobs.id, `${REMINDER_JOB}:${tomorrow}`)));
    expect(next?.runAt.toISOString()).toBe(reminderTime(tomorrow, 'UTC').toISOString());

    // Tomorrow's run reminds of Cal.
    await runDueJobs({ kinds: [REMINDER_JOB], now: () => new Date(reminderTime(tomorrow, 'UTC').getTime() + 60_000) });
    const all = await reminders();
    expect(all).toHaveLength(2);
    expect(all.find((m) => m.text.includes('cal@example.com'))?.subject).toMatch(/^1 follow-up due today — /);
  });

  it('is at the morning of the site’s time zone', () => {
    expect(reminderTime('2026-07-01', 'Europe/Berlin').toISOString()).toBe('2026-07-01T06:00:00.000Z');
    expect(reminderTime('2026-12-01', 'America/New_York').toISOString()).toBe('2026-12-01T13:00:00.000Z');
  });
});
