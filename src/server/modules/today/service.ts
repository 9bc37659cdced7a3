/**
 * The overview's Today (issue 35): requests waiting for a report, chats waiting for the team, follow-ups
 * due and reports opened without a reply since, each a short list with its total; and the numbers every
 * admin page shows live (the title's count, the sidebar's badges). Reads only: the admin guard and the API
 * route check who asks.
 */
import { NO_SIGNALS, type AdminSignals } from '../../../shared/admin-signals';
import { logger } from '../../logger';
import { TODAY_LIST_LENGTH } from '../../../shared/today';
import { inboxConversation } from '../chat/dto';
import { listWaitingConversationViews } from '../chat/repository';
import { followUpsDue } from '../leads/work';
import { openedWithoutReply, readSignals, waitingRequests } from './repository';

export const adminSignals = (): Promise<AdminSignals> => readSignals();

const perRequest = new WeakMap<Request, Promise<AdminSignals>>();

/**
 * The counts once per admin page render (the title, both copies of the sidebar, the chat's tabs). Never
 * rejects: a failed read is logged and shows no counts; the live feed brings them a moment later.
 */
export function adminSignalsFor(request: Request): Promise<AdminSignals> {
  let signals = perRequest.get(request);
  if (!signals) {
    signals = readSignals().catch((err: unknown) => {
      logger.error({ err }, 'the admin counts failed to load');
      return NO_SIGNALS;
    });
    perRequest.set(request, signals);
  }
  return signals;
}

/** The four lists' first rows and totals (`day`: the site's day, for what is due). */
export async function todayOverview(limit = TODAY_LIST_LENGTH) {
  const [requests, chats, due, reports] = await Promise.all([waitingRequests(limit), listWaitingConversationViews(limit), followUpsDue(limit), openedWithoutReply(limit)]);
  return {
    day: due.today,
    requests: { total: requests.total, rows: requests.rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) },
    chats: { total: chats.total, rows: chats.rows.map(inboxConversation) },
    followUps: { total: due.total, rows: due.rows },
    reports: { total: reports.total, rows: reports.rows.map((r) => ({ ...r, openedAt: r.openedAt.toISOString() })) },
  };
}
