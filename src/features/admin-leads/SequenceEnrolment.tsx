/**
 * A sequence card's own numbers and its offer to enrol the people who already agreed (issue 35, decision
 * 054): what it did so far (enrolled, emails sent, replied, booked, unsubscribed), and, once it is on, how
 * many people agreed on its form and are not in it, with "Enrol N people…" (asked first: real emails follow).
 */
import { actions } from 'astro:actions';
import { useId, useState } from 'react';
import { callAction } from '../../components/admin/call-action';
import { useConfirm } from '../../components/admin/ConfirmDialog';
import { formatInZone } from '../../shared/dates';
import type { SequenceNumbers, Waiting } from '../../shared/sequence-enrolment';
import { SEQUENCE_TRIGGER_LABELS, type SequenceTrigger } from '../../shared/schemas/lead-sequences';

const people = (n: number) => `${n.toLocaleString('en-GB')} ${n === 1 ? 'person' : 'people'}`;
const percentOf = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 100)}% of enrolled` : '');

/** The sequence's numbers as a row of tiles (a description list: each number with its name). */
export function SequenceNumbersList({ numbers, label }: { numbers: SequenceNumbers; label: string }) {
  const tiles: [string, number, string][] = [
    ['Enrolled', numbers.enrolled, numbers.running > 0 ? `${numbers.running.toLocaleString('en-GB')} in progress` : numbers.enrolled > 0 ? 'none in progress' : ''],
    ['Emails sent', numbers.sent, ''],
    ['Replied', numbers.replied, percentOf(numbers.replied, numbers.enrolled)],
    ['Booked a call', numbers.booked, percentOf(numbers.booked, numbers.enrolled)],
    ['Unsubscribed', numbers.unsubscribed, percentOf(numbers.unsubscribed, numbers.enrolled)],
  ];
  return (
    <dl aria-label={`Numbers of “${label}”`} className="grid grid-cols-2 gap-2 sm:grid-cols-5" data-sequence-numbers>
      {tiles.map(([name, value, note]) => (
        <div key={name} className="rounded-lg bg-slate-50 px-3 py-2" data-number={name}>
          <dt className="text-xs font-medium text-slate-600">{name}</dt>
          <dd className="text-lg font-semibold text-ink tabular-nums">{value.toLocaleString('en-GB')}</dd>
          {note && <dd className="text-xs text-slate-600">{note}</dd>}
        </div>
      ))}
    </dl>
  );
}

const primaryButton = 'inline-flex h-10 items-center rounded-lg bg-brand-600 px-4 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-60';
const secondaryButton = 'inline-flex h-10 items-center rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold text-ink hover:bg-slate-50 disabled:opacity-60';

/** When step 1 goes for someone enrolled now, in words. */
const firstStepWords = (delayDays: number) => (delayDays === 0 ? 'right away' : delayDays === 1 ? 'tomorrow at this time' : `${delayDays} days from now`);

export interface EnrolResult {
  enrolled: number;
  firstStepAt: string;
  numbers: SequenceNumbers;
  waiting: Waiting;
}

/**
 * The offer to enrol everyone waiting, for a sequence that is on (as saved). "Not now" folds it into one
 * line that still offers it; the confirmation names the count; the outcome is said in its live region.
 */
export function WaitingOffer({ trigger, waiting, firstDelayDays, timeZone, onEnrolled }: { trigger: SequenceTrigger; waiting: Waiting; firstDelayDays: number; timeZone: string; onEnrolled(result: EnrolResult): void }) {
  const label = SEQUENCE_TRIGGER_LABELS[trigger];
  const [confirm, dialog] = useConfirm();
  const [folded, setFolded] = useState(false);
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<{ tone: 'success' | 'error'; text: string }>();
  const headingId = useId();
  const count = waiting.count;
  const day = (ms: number) => formatInZone(ms, timeZone, 'date');
  const span = waiting.oldest !== null && waiting.newest !== null ? (day(waiting.oldest) === day(waiting.newest) ? ` on ${day(waiting.oldest)}` : ` between ${day(waiting.oldest)} and ${day(waiting.newest)}`) : '';

  async function enrol() {
    const ok = await confirm(
      `Enrol ${people(count)}?`,
      <>
        <p>
          {people(count)} who agreed to these emails start “{label}” now: step 1 goes out {firstStepWords(firstDelayDays)} (outside the quiet hours), then each step on its day.
        </p>
        <p className="mt-2">It stops for anyone who replies, books a call or unsubscribes.</p>
      </>,
      `Enrol ${people(count)}`,
      'primary',
    );
    if (!ok) return;
    setBusy(true);
    setSaid(undefined);
    // Not retried: the server enrols each person once anyway, and the answer says how many it took.
    const outcome = await callAction<EnrolResult>(() => actions.admin.leads.enrolWaiting({ trigger }));
    setBusy(false);
    if (!outcome.ok) {
      setSaid({ tone: 'error', text: `Nobody enrolled: ${outcome.message}` });
      return;
    }
    const { enrolled, firstStepAt } = outcome.data;
    setSaid(
      enrolled === 0
        ? { tone: 'error', text: 'Nobody enrolled: nobody was waiting any more (enrolled, unsubscribed or stopped meanwhile).' }
        : { tone: 'success', text: `Enrolled ${people(enrolled)}. Step 1 goes out from ${formatInZone(firstStepAt, timeZone, 'appointment')}.` },
    );
    onEnrolled(outcome.data);
  }

  return (
    <div data-waiting-offer={count}>
      {count > 0 &&
        (folded ? (
          <p className="flex flex-wrap items-center gap-3 text-sm text-slate-700">
            {people(count)} who agreed {count === 1 ? 'is' : 'are'} not in it.
            <button type="button" disabled={busy} onClick={() => void enrol()} className={secondaryButton}>
              Enrol {people(count)}…
            </button>
          </p>
        ) : (
          <div role="group" aria-labelledby={headingId} className="rounded-xl border border-brand-200 bg-brand-50 p-4">
            <h3 id={headingId} className="text-sm font-semibold text-ink">
              {people(count)} already agreed to these emails
            </h3>
            <p className="mt-1 text-sm text-slate-700">
              They gave their consent{span} but are not in this sequence. Enrolling them starts it for them now: step 1 goes out {firstStepWords(firstDelayDays)}, outside the quiet
              hours. People who unsubscribed, replied, booked a call, are a client or not a fit, or were in this sequence before are left out.
            </p>
            <div className="mt-3 flex flex-wrap gap-2">
              <button type="button" disabled={busy} aria-busy={busy || undefined} onClick={() => void enrol()} className={primaryButton}>
                {busy ? 'Enrolling…' : `Enrol ${people(count)}…`}
              </button>
              <button type="button" disabled={busy} onClick={() => setFolded(true)} className={secondaryButton}>
                Not now
              </button>
            </div>
          </div>
        ))}
      <p role="status" aria-live="polite" className={said ? `mt-2 text-sm font-medium ${said.tone === 'success' ? 'text-emerald-800' : 'text-red-700'}` : 'sr-only'} data-enrol-status>
        {said?.text}
      </p>
      {dialog}
    </div>
  );
}

/** For a sequence that is off (as saved): how many it could take once it is on. */
export function WaitingWhileOff({ waiting }: { waiting: Waiting }) {
  if (waiting.count === 0) return null;
  return (
    <p className="text-sm text-slate-600" data-waiting-while-off={waiting.count}>
      {people(waiting.count)} already agreed to these emails. Once you turn the sequence on and save, you can enrol them too.
    </p>
  );
}
