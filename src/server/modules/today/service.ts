/**
 * The overview's Today (issue 35): requests waiting for a report, chats waiting for the team, follow-ups
 * due and reports opened without a reply since, each a short list with its total; and the numbers every
 * admin page shows live (the title's count, the sidebar's badges). Reads only: the admin guard and the API
 * route check who asks.
 */
import type { AdminSignals } from '../../../shared/admin-signals';
import { TODAY_LIST_LENGTH, type Today } from '../../../shared/today';
import { inboxConversation } from '../chat/dto';
import { listWaitingConversationViews } from '../chat/repository';
import { followUpsDue } from '../leads/work';
import { openedWithoutReply, readSignals, waitingRequests } from './repository';

export const adminSignals = (): Promise<AdminSignals> => readSignals();

export async function todayOverview(limit = TODAY_LIST_LENGTH): Promise<Today> {
  const [requests, chats, due, reports] = await Promise.all([waitingRequests(limit), listWaitingConversationViews(limit), followUpsDue(limit), openedWithoutReply(limit)]);
  return {
    day: due.today,
    requests: { total: requests.total, rows: requests.rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) },
    chats: { total: chats.total, rows: chats.rows.map(inboxConversation) },
    followUps: { total: due.total, rows: due.rows },
    reports: { total: reports.total, rows: reports.rows.map((r) => ({ ...r, openedAt: r.openedAt.toISOString() })) },
  };
}
