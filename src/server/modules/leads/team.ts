/**
 * The team is not a lead (decision 032). A lead event belongs to the team when it was made by, or names the
 * email of, an account whose role is admin *now*: the owner's own sign-up, an admin trying the chat or the
 * audit form. Decided when counting, not when recording, so promoting a member takes their earlier events
 * out of every lead number and list, and demoting an admin brings theirs back. Admins are few: PostgreSQL
 * answers both `not in` with a hashed set read once per query (users_role_idx).
 *
 * The events naming an admin's email are found once per query through lead_events_person_at_idx
 * (lower(email)) and left out by id: lower-casing every event's email costs more than the rest of the
 * check (measured on PGlite: a third of a 20,000-event count).
 */
import { notInArray, sql, type SQL } from 'drizzle-orm';
import { FOLLOW_UP_KINDS } from '../../../shared/lead-events';
import { leadEvents, leadPersonStats, users } from '../../db/schema';

const adminIds = sql`select ${users.id} from ${users} where ${users.role} = 'admin'`;
/** The admins' addresses (a subquery). better-auth stores users.email lower-cased; lead events keep what the person typed. */
export const adminEmails = sql`select ${users.email} from ${users} where ${users.role} = 'admin'`;

const eventsNamingAdmins = sql`select team_events.id from ${leadEvents} team_events where lower(team_events.email) in (${adminEmails})`;

/** True for a lead event no admin made or is named in: add it to every query that counts or lists leads. */
export const notByTeam: SQL = sql`((${leadEvents.userId} is null or ${leadEvents.userId} not in (${adminIds})) and ${leadEvents.id} not in (${eventsNamingAdmins}))`;

/** True for an event that brought a lead (not a follow-up such as a report opened): where leads came from, conversion. */
export const bringsALead: SQL = notInArray(leadEvents.kind, [...FOLLOW_UP_KINDS]);

/**
 * The same rule on a person's summary rows (lead_person_stats, one per email and account, decision 050): a
 * row of an admin's account, or of an admin's email, is the team's.
 */
export const statsNotByTeam: SQL = sql`((${leadPersonStats.userKey} = '' or ${leadPersonStats.userKey} not in (${adminIds})) and ${leadPersonStats.email} not in (${adminEmails}))`;
