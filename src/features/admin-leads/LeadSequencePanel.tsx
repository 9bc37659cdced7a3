/**
 * A lead's follow-up emails on /admin/leads/[person] (issue 23, decisions 049 and 054): whether they
 * unsubscribed, the "replied" mark (which stops their sequences), each sequence they were enrolled in with
 * its state, the steps sent and skipped, the next email as it will be sent and when, and "Send step N now"
 * for a running one (asked first: it sends a real email); then enrolling them by hand in a sequence their
 * consent covers, each other sequence with the reason it is not offered.
 * Each change goes through an admin.leads.* Action; the page then reloads so the panel and the timeline show
 * what the server recorded, and the outcome is said in this panel's status line (kept across the reload).
 */
import { actions } from 'astro:actions';
import { useEffect, useState, type ReactNode } from 'react';
import { callAction } from '../../components/admin/call-action';
import { useConfirm } from '../../components/admin/ConfirmDialog';
import { Section, SelectInput } from '../../components/admin/fields';
import { formatInZone } from '../../shared/dates';
import { SEQUENCE_STOP_LABELS, SEQUENCE_TRIGGER_LABELS, UNCONFIRMED_ADDRESS_NOTE, type SequenceStopReason, type SequenceTrigger } from '../../shared/schemas/lead-sequences';

export interface SequenceEnrollmentItem {
  id: string;
  trigger: SequenceTrigger;
  status: 'active' | 'completed' | 'stopped';
  stopReason: SequenceStopReason | '';
  /** ISO times. */
  enrolledAt: string;
  endedAt: string | null;
  /** 0-based. */
  nextStep: number;
  nextAt: string | null;
  /** Steps in the sequence now. */
  steps: number;
  sent: number;
  skipped: { step: number; reason: string }[];
  /** A running one's next email, filled for them as the sender fills it. */
  next: NextMailItem | null;
}

export interface NextMailItem {
  /** 0-based. */
  step: number;
  /** ISO: when it goes out (its day, after the quiet hours). */
  at: string;
  subject: string;
  text: string;
  /** Set when the step will be skipped instead, and why. */
  skip?: string;
}

export interface EnrolOptionItem {
  trigger: SequenceTrigger;
  /** Why it is not offered; absent: it is. */
  refusal?: string;
}

interface Props {
  email: string;
  /** ISO times, or null. */
  unsubscribedAt: string | null;
  /** Whether they confirmed their address (decision 057): until then a sequence leaves out what they typed. */
  addressConfirmed: boolean;
  repliedAt: string | null;
  enrollments: SequenceEnrollmentItem[];
  enrolOptions: EnrolOptionItem[];
  timeZone: string;
}

/** The outcome of the last action, said again after the reload (this page only). */
const STATUS_KEY = 'lead-sequence-status';

const SEND_OUTCOMES: Record<string, string> = {
  sent: 'sent: it is in the mail queue and goes out within a minute',
  skipped: 'skipped: nothing could be sent for it (see the reason below)',
  completed: 'not sent: the sequence has no such step any more, so it is completed for them',
  deferred: 'not sent yet: it is queued for its time',
  'not-due': 'not sent: it was sent meanwhile',
  stopped: 'not sent: the sequence stopped for them',
};

type Tone = 'success' | 'info' | 'error';
const TONE_CLASS: Record<Tone, string> = { success: 'text-emerald-800', info: 'text-slate-700', error: 'text-red-700' };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const primaryButton = 'inline-flex h-10 items-center rounded-lg bg-brand-600 px-4 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-60';
const secondaryButton = 'inline-flex h-10 items-center rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold text-ink hover:bg-slate-50 disabled:opacity-60';

export default function LeadSequencePanel(props: Props) {
  const [confirm, dialog] = useConfirm();
  const [busy, setBusy] = useState<string | undefined>();
  const [status, setStatus] = useState<{ tone: Tone; text: string } | undefined>();
  const offered = props.enrolOptions.filter((o) => !o.refusal);
  const [choice, setChoice] = useState<SequenceTrigger | undefined>(offered[0]?.trigger);
  const at = (iso: string, style?: 'appointment') => (
    <time dateTime={iso} className="tabular-nums">
      {formatInZone(iso, props.timeZone, style)}
    </time>
  );

  // The outcome of the action that reloaded the page: said once, in the live region below.
  useEffect(() => {
    try {
      const saved = sessionStorage.getItem(STATUS_KEY);
      if (!saved) return;
      sessionStorage.removeItem(STATUS_KEY);
      const parsed = JSON.parse(saved) as { path?: string; tone?: Tone; text?: string };
      if (parsed.path === window.location.pathname && parsed.text) setStatus({ tone: parsed.tone && parsed.tone in TONE_CLASS ? parsed.tone : 'info', text: parsed.text });
    } catch {
      // No storage (private mode, blocked): the reloaded page shows the new state anyway.
    }
  }, []);

  /** Says `text` after the page reloads with the server's state. */
  function reloadSaying(tone: Tone, text: string) {
    try {
      sessionStorage.setItem(STATUS_KEY, JSON.stringify({ path: window.location.pathname, tone, text }));
    } catch {
      // See above.
    }
    window.location.reload();
  }

  async function setReplied(replied: boolean) {
    setBusy('replied');
    setStatus(undefined);
    // Idempotent (marking twice changes nothing), but not retried: the reload shows the state either way.
    const outcome = await callAction<{ changed: boolean }>(() => actions.admin.leads.setReplied({ email: props.email, replied }));
    if (outcome.ok) {
      reloadSaying('success', replied ? 'Marked as replied: their follow-up sequences are stopped.' : '“Replied” taken back.');
      return;
    }
    setBusy(undefined);
    setStatus({ tone: 'error', text: outcome.message });
  }

  async function sendNow(e: SequenceEnrollmentItem) {
    const step = e.nextStep + 1;
    const label = SEQUENCE_TRIGGER_LABELS[e.trigger];
    const ok = await confirm(
      `Send step ${step} now?`,
      <>
        <p>
          <span className="font-medium break-all">{props.email}</span> gets step {step} of “{label}” now, without waiting for its day or the quiet hours.
        </p>
        <p className="mt-2">The steps after it keep their own days.</p>
      </>,
      'Send now',
      'primary',
    );
    if (!ok) return;
    setBusy(e.id);
    setStatus(undefined);
    // Not retried: a lost answer must not send twice (the server sends each step once anyway).
    const outcome = await callAction<{ outcome: string }>(() => actions.admin.leads.sendSequenceStepNow({ enrollmentId: e.id }));
    if (outcome.ok) {
      const said = SEND_OUTCOMES[outcome.data.outcome] ?? outcome.data.outcome;
      reloadSaying(outcome.data.outcome === 'sent' ? 'success' : 'info', `Step ${step} of “${label}” ${said}.`);
      return;
    }
    // The server refused because the enrolment changed (stopped, sent meanwhile): show its state now.
    if (outcome.kind === 'error' || outcome.kind === 'not-found' || outcome.kind === 'invalid') {
      reloadSaying('error', outcome.message);
      return;
    }
    setBusy(undefined);
    setStatus({ tone: 'error', text: outcome.message });
  }

  async function enrol(trigger: SequenceTrigger) {
    const label = SEQUENCE_TRIGGER_LABELS[trigger];
    const ok = await confirm(
      `Enrol them in “${label}”?`,
      <>
        <p>
          <span className="font-medium break-all">{props.email}</span> starts “{label}” now: each step goes out on its day counted from now, outside the quiet hours.
        </p>
        <p className="mt-2">It stops if they reply, book a call or unsubscribe.</p>
      </>,
      'Enrol',
      'primary',
    );
    if (!ok) return;
    setBusy('enrol');
    setStatus(undefined);
    // Not retried: the server enrols a person once anyway (a second call is refused as "already in it").
    const outcome = await callAction<{ firstStepAt: string }>(() => actions.admin.leads.enrolPerson({ email: props.email, trigger }));
    if (outcome.ok) {
      reloadSaying('success', `Enrolled in “${label}”: step 1 goes out ${formatInZone(outcome.data.firstStepAt, props.timeZone, 'appointment')}.`);
      return;
    }
    // Refused because their state changed since the page was drawn: show it as it is now.
    if (outcome.kind === 'conflict' || outcome.kind === 'not-found') {
      reloadSaying('error', outcome.message);
      return;
    }
    setBusy(undefined);
    setStatus({ tone: 'error', text: outcome.message });
  }

  return (
    <Section title="Follow-up emails" description="Sequences of emails sent after an audit request, a report or a chat lead.">
      <div data-lead-sequences className="space-y-4">
        {props.unsubscribedAt && (
          <p className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm font-medium text-amber-900" data-unsubscribed>
            Unsubscribed from follow-up emails on {at(props.unsubscribedAt)}.
          </p>
        )}

        <div className="rounded-lg border border-slate-200 p-3" data-replied={props.repliedAt ? 'yes' : 'no'}>
          {props.repliedAt ? (
            <>
              <p className="text-sm font-semibold text-ink">Replied (marked {at(props.repliedAt)})</p>
              <p className="mt-1 text-sm text-slate-600">Taking it back does not restart sequences that already stopped.</p>
              <button type="button" disabled={busy !== undefined} aria-busy={busy === 'replied' || undefined} onClick={() => void setReplied(false)} className={`mt-3 ${secondaryButton}`}>
                {busy === 'replied' ? 'Saving…' : 'Take back'}
              </button>
            </>
          ) : (
            <>
              <p className="text-sm text-slate-600">Did they answer? Marking it stops their follow-up sequences.</p>
              <button type="button" disabled={busy !== undefined} aria-busy={busy === 'replied' || undefined} onClick={() => void setReplied(true)} className={`mt-3 ${secondaryButton}`}>
                {busy === 'replied' ? 'Saving…' : 'Mark as replied'}
              </button>
            </>
          )}
        </div>

        {props.enrollments.length === 0 ? (
          <p className="text-sm text-slate-600" data-no-sequences>
            Not in any follow-up sequence.{' '}
            <a href="/admin/leads/sequences" className="font-medium text-brand-700 underline-offset-2 hover:underline">
              Set up sequences
            </a>
          </p>
        ) : (
          <ul className="grid gap-3" aria-label="Sequences">
            {props.enrollments.map((e) => (
              <li key={e.id} className="rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm" data-enrollment={e.status} data-enrollment-id={e.id}>
                <h3 className="font-semibold text-ink">{SEQUENCE_TRIGGER_LABELS[e.trigger] ?? e.trigger}</h3>
                <p className="mt-1 text-ink" data-enrollment-status>
                  <EnrollmentStatus e={e} at={at} />
                </p>
                <p className="mt-1 text-slate-600">
                  Started {at(e.enrolledAt)} · {e.sent === 0 ? 'no step sent yet' : plural(e.sent, 'step sent', 'steps sent')}
                </p>
                {e.skipped.length > 0 && (
                  <ul className="mt-1 list-disc space-y-0.5 pl-5 text-slate-600" aria-label="Skipped steps">
                    {e.skipped.map((s) => (
                      <li key={s.step}>
                        Step {s.step + 1} skipped: {s.reason || 'no reason recorded'}
                      </li>
                    ))}
                  </ul>
                )}
                {e.next && <NextMail next={e.next} at={at} addressConfirmed={props.addressConfirmed} />}
                {e.status === 'active' && e.nextStep < e.steps && (
                  <button type="button" disabled={busy !== undefined} aria-busy={busy === e.id || undefined} onClick={() => void sendNow(e)} className={`mt-3 ${primaryButton}`}>
                    {busy === e.id ? 'Sending…' : `Send step ${e.nextStep + 1} now`}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}

        <EnrolControl options={props.enrolOptions} choice={choice} onChoice={setChoice} busy={busy} onEnrol={(t) => void enrol(t)} />

        <p role="status" aria-live="polite" className={status ? `text-sm font-medium ${TONE_CLASS[status.tone]}` : 'sr-only'} data-sequence-status>
          {status?.text}
        </p>
      </div>
      {dialog}
    </Section>
  );
}

function EnrollmentStatus({ e, at }: { e: SequenceEnrollmentItem; at: (iso: string, style?: 'appointment') => ReactNode }) {
  if (e.status === 'completed') return <>Completed{e.endedAt && <> on {at(e.endedAt)}</>}</>;
  if (e.status === 'stopped') {
    const why = e.stopReason ? SEQUENCE_STOP_LABELS[e.stopReason] : undefined;
    return (
      <>
        Stopped{why ? `: ${why}` : ''}
        {e.endedAt && <> ({at(e.endedAt)})</>}
      </>
    );
  }
  if (e.nextStep >= e.steps) return <>All {plural(e.steps, 'step', 'steps')} done; it completes at its next check</>;
  const due = e.next?.at ?? e.nextAt;
  return (
    <>
      Step {e.nextStep + 1} of {e.steps} {due ? <>due {at(due, 'appointment')}</> : 'waiting to be scheduled'}
    </>
  );
}

/** The next email as they will get it (placeholders filled, the footer with their unsubscribe link), or why it will be skipped. */
function NextMail({ next, at, addressConfirmed }: { next: NextMailItem; at: (iso: string, style?: 'appointment') => ReactNode; addressConfirmed: boolean }) {
  if (next.skip) {
    return (
      <p className="mt-2 text-slate-700" data-next-mail="skip">
        Step {next.step + 1} will be skipped on {at(next.at, 'appointment')}: {next.skip}.
      </p>
    );
  }
  return (
    <div className="mt-3 rounded-lg border border-slate-200 bg-white p-3" data-next-mail>
      <p className="text-xs font-medium text-slate-600">Step {next.step + 1} as they will get it</p>
      <p className="mt-1 font-semibold text-ink [overflow-wrap:anywhere]" data-next-mail-subject>
        {next.subject}
      </p>
      <details className="mt-1">
        <summary className="cursor-pointer font-medium text-brand-700">Show the email</summary>
        <p dir="auto" className="mt-2 whitespace-pre-wrap text-ink [overflow-wrap:anywhere]" data-next-mail-body>
          {next.text}
        </p>
      </details>
      {!addressConfirmed && (
        <p className="mt-2 text-xs text-slate-600" data-unconfirmed-address>
          {UNCONFIRMED_ADDRESS_NOTE}
        </p>
      )}
    </div>
  );
}

/** Enrol by hand: the sequences their consent covers, and why each other one is not offered. */
function EnrolControl({ options, choice, onChoice, busy, onEnrol }: { options: EnrolOptionItem[]; choice: SequenceTrigger | undefined; onChoice(t: SequenceTrigger): void; busy: string | undefined; onEnrol(t: SequenceTrigger): void }) {
  const offered = options.filter((o) => !o.refusal);
  const refused = options.filter((o) => o.refusal);
  return (
    <div className="rounded-lg border border-slate-200 p-3" data-enrol>
      <h3 className="text-sm font-semibold text-ink">Enrol in a sequence</h3>
      {offered.length > 0 && choice ? (
        <div className="mt-2 grid gap-2 sm:grid-cols-[1fr_auto] sm:items-end">
          <SelectInput label="Sequence" value={choice} onValue={onChoice} options={offered.map((o) => ({ value: o.trigger, label: SEQUENCE_TRIGGER_LABELS[o.trigger] }))} />
          <button type="button" disabled={busy !== undefined} aria-busy={busy === 'enrol' || undefined} onClick={() => onEnrol(choice)} className={primaryButton}>
            {busy === 'enrol' ? 'Enrolling…' : 'Enrol…'}
          </button>
        </div>
      ) : (
        <p className="mt-1 text-sm text-slate-600">No sequence can take them now.</p>
      )}
      {refused.length > 0 && (
        <ul className="mt-3 space-y-1 text-sm text-slate-600" aria-label="Sequences not offered">
          {refused.map((o) => (
            <li key={o.trigger} data-enrol-refusal={o.trigger}>
              <span className="font-medium text-slate-800">{SEQUENCE_TRIGGER_LABELS[o.trigger]}</span>: {o.refusal}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
