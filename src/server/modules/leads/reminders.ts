/**
 * The morning reminder (issue 23): on each day, at REMINDER_HOUR in the site's time zone, every admin who
 * owns leads whose follow-up falls due that day gets one email listing them. A job per day in the durable
 * queue (id `lead-reminders:<day>`, queued once whoever asks: at start-up for today, and by each day's run
 * for the next); the email and a row of lead_reminders are written in one transaction, so a run that is
 * repeated (a restart, a second process) never sends an owner the same day's reminder twice.
 */
import { config } from '../../config';
import { db } from '../../db';
import { defineJobKind, doublingDelay, enqueueJob } from '../../jobs/queue';
import { logger } from '../../logger';
import { enqueueMail } from '../../mail/queue';
import { compose, type MailMessage } from '../../mail/templates';
import { addDays, dayKeyIn, startOfDayIn } from '../../../shared/dates';
import { dayHeading, peopleSearch, personHref } from '../../../shared/lead-people';
import { leadStageLabel } from '../../../shared/schemas/lead-work';
import { getSiteContent } from '../site/service';
import { claimReminder, followUpsOwnedOn } from './work-repository';
import { siteTimeZone } from '../site/time-zone';

export const REMINDER_JOB = 'lead-reminders';
/** The hour of the site's morning the reminders go out. */
export const REMINDER_HOUR = 8;
/** Leads named in one email at most; the link lists them all. */
const MAX_LISTED = 25;

const log = logger.child({ module: 'lead-reminders' });

/** REMINDER_HOUR on `day` in `timeZone` (an hour off on a day the clocks change: still the morning). */
export const reminderTime = (day: string, timeZone: string) => new Date(startOfDayIn(day, timeZone).getTime() + REMINDER_HOUR * 3_600_000);

/** Queues `day`'s reminders at its morning, unless they are queued (or sent) already. */
export async function scheduleReminders(day: string, timeZone: string, ex: Parameters<typeof enqueueJob>[0] = db()): Promise<void> {
  await enqueueJob(ex, { kind: REMINDER_JOB, id: `${REMINDER_JOB}:${day}`, payload: { day }, runAt: reminderTime(day, timeZone), ifAbsent: true });
}

/** At start-up: today's reminders (sent at once if the morning has passed and they were not). */
export async function scheduleTodaysReminders(now = new Date()): Promise<void> {
  const timeZone = await siteTimeZone();
  await scheduleReminders(dayKeyIn(now, timeZone), timeZone);
}

export function reminderEmail(to: { email: string; name: string }, day: string, leads: { email: string; name: string; stage: string }[], total: number, site: { siteName: string; siteUrl: string }): MailMessage {
  const lines = leads.map((lead) => `${lead.name ? `${lead.name} <${lead.email}>` : lead.email} (${leadStageLabel(lead.stage)}): ${site.siteUrl}${personHref(lead.email)}`);
  const more = total > leads.length ? [`… and ${total - leads.length} more.`] : [];
  return compose(
    to,
    `${total === 1 ? '1 follow-up' : `${total} follow-ups`} due today — ${site.siteName}`,
    [`${total === 1 ? 'A lead you own is' : `${total} leads you own are`} due for a follow-up today, ${dayHeading(day)}:`, ...lines, ...more],
    { label: 'Open your follow-ups due', url: `${site.siteUrl}/admin/leads${peopleSearch({ owner: 'me', due: true, sort: 'follow-up' })}` },
  );
}

/** Each owner's leads due on `day`: active admins only (an owner who lost the role gets nothing). */
async function dueByOwner(day: string) {
  const owners = new Map<string, { email: string; name: string; leads: { email: string; name: string; stage: string }[] }>();
  for (const row of await followUpsOwnedOn(day)) {
    const owner = owners.get(row.ownerId) ?? { email: row.ownerEmail, name: row.ownerName, leads: [] };
    owner.leads.push({ email: row.email, name: row.name, stage: row.stage });
    owners.set(row.ownerId, owner);
  }
  return owners;
}

/** Sends `day`'s reminders not sent yet; returns how many owners got one. */
export async function sendFollowUpReminders(day: string): Promise<number> {
  const owners = await dueByOwner(day);
  if (owners.size === 0) return 0;
  const { siteName } = await getSiteContent();
  const site = { siteName, siteUrl: config().SITE_URL };
  let sent = 0;
  for (const [ownerId, owner] of owners) {
    const queued = await db().transaction(async (tx) => {
      if (!(await claimReminder(tx, ownerId, day))) return false;
      await enqueueMail(tx, { kind: 'lead-reminder', ...reminderEmail(owner, day, owner.leads.slice(0, MAX_LISTED), owner.leads.length, site) });
      return true;
    });
    if (queued) sent++;
  }
  log.info({ day, owners: sent }, 'follow-up reminders queued');
  return sent;
}

defineJobKind<{ day: string }>(REMINDER_JOB, {
  maxAttempts: 5,
  retryDelayMs: doublingDelay(60_000),
  leaseMs: 10 * 60_000,
  run: async ({ day }) => {
    await sendFollowUpReminders(day);
    // Tomorrow's, at tomorrow's morning in the zone as it is set then.
    await scheduleReminders(addDays(day, 1), await siteTimeZone());
  },
});
