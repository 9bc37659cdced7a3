/**
 * The admin live feed's counts and lead alerts (issue 35), on every server process. The counts behind the
 * title and the badges (`signals`) are read again after anything that may change them — a chat change
 * (chat/live.ts, already on every process), a new lead, a report sent, a request's status — once per
 * process however many admin pages listen there, and only when one does; reads that would overlap are
 * folded into one more after the current one. New leads are announced with a reference on the event bus
 * (docs/decisions/022) from where they are stored; each process reads the row and alerts its own admins.
 */
import { onEvent, publish } from '../../events/bus';
import { logger } from '../../logger';
import { findAuditRequest } from '../audit/repository';
import { inboxListenerCount, publishToInbox } from '../chat/hub';
import { findConversationView } from '../chat/repository';
import { auditRequestAlert, chatLeadAlert } from './alerts';
import { readSignals } from './repository';

const CHANGE_TOPIC = 'today.change';
const LEAD_TOPIC = 'today.lead';

export interface NewLead {
  kind: 'audit-request' | 'chat-lead';
  /** The audit request's or the conversation's id. */
  id: string;
}

// On globalThis like the hub: the chat's routes, the Actions and the event bus may sit in different chunks.
const holder = globalThis as unknown as { __agencyTodaySignals?: { reading: Promise<void> | undefined; again: boolean } };
const state = (holder.__agencyTodaySignals ??= { reading: undefined, again: false });

/** Reads the counts and sends them to this process's admin pages; resolves when sent (tests await it). */
export function refreshSignals(): Promise<void> {
  if (inboxListenerCount() === 0) return Promise.resolve();
  if (state.reading) {
    state.again = true;
    return state.reading;
  }
  const reading = (async () => {
    do {
      state.again = false;
      publishToInbox({ event: 'signals', data: await readSignals() });
    } while (state.again);
  })()
    .catch((err: unknown) => logger.error({ err }, 'the admin counts could not be read'))
    .finally(() => {
      state.reading = undefined;
    });
  state.reading = reading;
  return reading;
}

onEvent(CHANGE_TOPIC, refreshSignals);

onEvent<NewLead>(LEAD_TOPIC, async (lead) => {
  if (inboxListenerCount() === 0) return;
  if (lead.kind === 'audit-request') {
    const request = await findAuditRequest(lead.id);
    if (request) publishToInbox({ event: 'alert', data: auditRequestAlert(request) });
  } else {
    const view = await findConversationView(lead.id);
    if (view?.conversation.contactEmail) publishToInbox({ event: 'alert', data: chatLeadAlert(view) });
  }
  await refreshSignals();
});

/** After a commit that may change what waits (a report sent, a status changed): every process's counts. */
export const announceTodayChange = (): Promise<void> => publish(CHANGE_TOPIC, {});

/** After a new audit request or chat lead committed: its alert and the new counts, on every process. */
export const announceNewLead = (lead: NewLead): Promise<void> => publish(LEAD_TOPIC, lead);
