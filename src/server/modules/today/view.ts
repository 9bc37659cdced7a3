/**
 * Today's rows as the page shows them (src/shared/today.ts): links, badges and times in the site's zone,
 * made here so the first render and each live refresh draw the same thing.
 */
import { formatInZone } from '../../../shared/dates';
import { followUpLabel, peopleSearch, personHref } from '../../../shared/lead-people';
import { inboxSearch } from '../../../shared/chat-inbox';
import { auditListSearch } from '../../../shared/schemas/audit';
import { leadStageBadgeClass, leadStageLabel } from '../../../shared/schemas/lead-work';
import { checkBadge, TODAY_BADGE_TONES, type TodayView } from '../../../shared/today';
import { todayOverview } from './service';

const conversationHref = (id: string) => `/admin/chat-settings/${encodeURIComponent(id)}`;
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export async function todayView(timeZone: string): Promise<TodayView> {
  const t = await todayOverview();
  const when = (verb: string, at: string) => ({ label: `${verb} ${formatInZone(at, timeZone, 'day-time')}`, at });
  return {
    requests: {
      key: 'requests',
      total: t.requests.total,
      moreHref: `/admin/audit${auditListSearch({ report: 'waiting' })}`,
      items: t.requests.rows.map((r) => ({
        key: r.id,
        href: `/admin/audit/${encodeURIComponent(r.id)}`,
        name: r.fullName,
        detail: r.businessName,
        badges: [checkBadge(r)],
        when: when('Received', r.createdAt),
      })),
    },
    chats: {
      key: 'chats',
      total: t.chats.total,
      moreHref: `/admin/chat-settings${inboxSearch({ status: 'open' })}`,
      items: t.chats.rows.map((c) => ({
        key: c.id,
        href: conversationHref(c.id),
        name: c.displayName,
        detail: c.preview || (c.contactEmail ? 'Left their contact details' : ''),
        badges: [
          c.unread > 0 ? { label: `${c.unread} unread`, className: TODAY_BADGE_TONES.brand } : { label: 'Waiting for your reply', className: TODAY_BADGE_TONES.amber },
          ...(c.takenOverBy ? [{ label: `Answered by ${c.takenOverBy}`, className: TODAY_BADGE_TONES.slate }] : []),
        ],
        when: when('Last message', c.lastMessageAt),
      })),
    },
    followUps: {
      key: 'followUps',
      total: t.followUps.total,
      moreHref: `/admin/leads${peopleSearch({ due: true, sort: 'follow-up' })}`,
      items: t.followUps.rows.map((f) => ({
        key: f.email,
        href: personHref(f.email),
        name: f.name || f.email,
        detail: f.ownerName ? `Owner: ${f.ownerName}` : 'Nobody owns this lead',
        badges: [{ label: leadStageLabel(f.stage), className: leadStageBadgeClass(f.stage) }],
        when: { label: followUpLabel(f.followUpOn, t.day), at: f.followUpOn, overdue: f.followUpOn < t.day },
      })),
    },
    reports: {
      key: 'reports',
      total: t.reports.total,
      moreHref: `/admin/leads${peopleSearch({ kind: 'report-opened' })}`,
      items: t.reports.rows.map((r) => ({
        key: r.email,
        href: personHref(r.email),
        name: r.fullName || r.email,
        detail: r.businessName,
        badges: [{ label: plural(r.openings, 'opening', 'openings'), className: TODAY_BADGE_TONES.slate }],
        when: when('Opened', r.openedAt),
      })),
    },
  };
}
