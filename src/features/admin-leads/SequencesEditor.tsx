/**
 * The follow-up sequences (/admin/leads/sequences): one card per trigger with its numbers, its on/off
 * switch and its steps in order (the day after enrolment, the subject, the message), each card saved on its
 * own (the switch says that it takes effect then). The shared sequence schema is checked by the server;
 * what it refuses is named beside its field (a step's day not after the one before, an unknown placeholder,
 * turning on a sequence without steps). Once a card is on, it offers to enrol the people who agreed before.
 */
import { actions } from 'astro:actions';
import { useId, useRef, useState } from 'react';
import { callAction, type CallOutcome } from '../../components/admin/call-action';
import { Section, TextArea, TextInput } from '../../components/admin/fields';
import { useKeepTypedValues } from '../../components/forms/keep-typed-values';
import { LEAD_MAIL_BODY_MAX, LEAD_MAIL_SUBJECT_MAX } from '../../shared/schemas/lead-mail';
import {
  SEQUENCE_DELAY_MAX_DAYS,
  SEQUENCE_CONFIRMATION_NOTE,
  SEQUENCE_PLACEHOLDERS,
  SEQUENCE_STEPS_MAX,
  SEQUENCE_TRIGGER_HINTS,
  SEQUENCE_TRIGGER_LABELS,
  type SequenceStep,
  type SequenceTrigger,
} from '../../shared/schemas/lead-sequences';
import type { SequenceNumbers, Waiting } from '../../shared/sequence-enrolment';
import { SequenceNumbersList, WaitingOffer, WaitingWhileOff } from './SequenceEnrolment';

export interface SequenceItem {
  trigger: SequenceTrigger;
  active: boolean;
  steps: SequenceStep[];
  numbers: SequenceNumbers;
  waiting: Waiting;
}

/** A step as typed: the day is kept as text ("" while retyped); the schema says what is wrong with it. */
type StepDraft = { key: number; delayDays: string; subject: string; body: string };

/** What the status line says: nothing yet, saving, saved, or why it was not saved. */
export type SaveStatus = { kind: 'idle' | 'saving' | 'saved' } | { kind: 'failed'; message: string };

let nextKey = 1;
const toDrafts = (steps: SequenceStep[]): StepDraft[] => steps.map((s) => ({ key: nextKey++, delayDays: String(s.delayDays), subject: s.subject, body: s.body }));

const primaryButton = 'inline-flex h-10 items-center rounded-lg bg-brand-600 px-4 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-60';
const secondaryButton = 'inline-flex h-10 items-center rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold text-ink hover:bg-slate-50 disabled:opacity-60';
const dangerButton = 'inline-flex h-10 items-center rounded-lg border border-red-300 bg-white px-4 text-sm font-semibold text-red-700 hover:bg-red-50 disabled:opacity-60';

/**
 * The status line of a form saved with one button (a live region, always present so a change is read
 * out): also used by the quiet hours.
 */
export function SaveStatusLine({ status, dirty, savedText, testId }: { status: SaveStatus; dirty: boolean; savedText: string; testId?: string }) {
  return (
    <p role="status" aria-live="polite" className="text-sm" data-testid={testId}>
      {status.kind === 'saving' && <span className="text-slate-600">Saving…</span>}
      {status.kind === 'failed' && <span className="font-medium text-red-700">{status.message}</span>}
      {status.kind !== 'saving' && status.kind !== 'failed' && dirty && <span className="text-slate-600">Unsaved changes.</span>}
      {status.kind === 'saved' && !dirty && <span className="font-medium text-emerald-700">{savedText}</span>}
    </p>
  );
}

/** A refused or failed save as the status line says it; field errors not shown beside a field are named here. */
export function failedMessage(outcome: Exclude<CallOutcome<unknown>, { ok: true }>, shownBeside: (path: string) => boolean): string {
  if (outcome.kind === 'offline') return 'Not saved: the server cannot be reached. Try again when you are back online.';
  if (outcome.kind !== 'invalid') return `Not saved: ${outcome.message}`;
  const beside = Object.keys(outcome.fieldErrors).filter(shownBeside).length;
  const others = Object.entries(outcome.fieldErrors).filter(([path]) => !shownBeside(path)).map(([, message]) => message);
  const parts = [beside === 1 ? '1 field needs correcting, as said beside it.' : beside > 1 ? `${beside} fields need correcting, as said beside them.` : '', ...others.map((m) => `${m}.`)];
  return `Not saved: ${parts.filter(Boolean).join(' ') || outcome.message}`;
}

function Placeholders() {
  return (
    <details className="rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-sm">
      <summary className="cursor-pointer font-medium text-slate-800">Placeholders you can use</summary>
      <p className="mt-2 text-slate-600" data-confirmation-note>
        {SEQUENCE_CONFIRMATION_NOTE}
      </p>
      <dl className="mt-2 grid gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
        {Object.entries(SEQUENCE_PLACEHOLDERS).map(([name, description]) => (
          <div key={name} className="contents">
            <dt>
              <code className="text-ink">{`{{${name}}}`}</code>
            </dt>
            <dd className="mb-1 text-slate-600 sm:mb-0">{description}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

/**
 * The on/off switch: a native checkbox (keyboard, forms, screen readers) drawn as a switch. It takes effect
 * when the card is saved, and says so while it differs from what is saved (`pending`).
 */
function SendingSwitch({ checked, onChecked, error, hintId, pending }: { checked: boolean; onChecked(v: boolean): void; error: string | undefined; hintId: string; pending: string | undefined }) {
  const id = useId();
  const describedBy = [error ? `${id}-error` : hintId, pending ? `${id}-pending` : ''].filter(Boolean).join(' ');
  return (
    <div>
      <label htmlFor={id} className="inline-flex cursor-pointer items-center gap-3">
        <span className="relative inline-flex h-6 w-11 flex-none">
          <input
            id={id}
            type="checkbox"
            role="switch"
            checked={checked}
            onChange={(e) => onChecked(e.target.checked)}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            className="peer absolute inset-0 z-10 h-full w-full cursor-pointer appearance-none rounded-full opacity-0"
          />
          <span
            aria-hidden="true"
            className="h-6 w-11 rounded-full bg-slate-500 transition-colors peer-checked:bg-brand-600 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-600 peer-aria-[invalid=true]:ring-2 peer-aria-[invalid=true]:ring-red-600 peer-aria-[invalid=true]:ring-offset-2 motion-reduce:transition-none"
          />
          <span aria-hidden="true" className="pointer-events-none absolute top-0.5 left-0.5 h-5 w-5 rounded-full bg-white shadow transition-transform peer-checked:translate-x-5 motion-reduce:transition-none" />
        </span>
        <span className={`text-sm font-semibold ${checked ? 'text-brand-700' : 'text-slate-700'}`}>{checked ? 'Sending' : 'Off'}</span>
      </label>
      {pending && (
        <p id={`${id}-pending`} className="mt-1 text-sm font-medium text-amber-800" data-switch-pending>
          {pending}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/** What saving the switch's new state will do, said beside it until saved. */
function pendingSwitchText(active: boolean, savedActive: boolean, running: number): string | undefined {
  if (active === savedActive) return undefined;
  if (active) return 'Starts sending when you save.';
  return running > 0 ? `Stops when you save: the ${running.toLocaleString('en-GB')} ${running === 1 ? 'person' : 'people'} in it get nothing more.` : 'Stops sending when you save.';
}

function SequenceCard({ initial, timeZone }: { initial: SequenceItem; timeZone: string }) {
  const { trigger } = initial;
  const label = SEQUENCE_TRIGGER_LABELS[trigger];
  const [active, setActive] = useState(initial.active);
  // What the server has: the switch and the steps take effect when saved.
  const [saved, setSaved] = useState({ active: initial.active, firstDelayDays: initial.steps[0]?.delayDays ?? 0 });
  const [numbers, setNumbers] = useState(initial.numbers);
  const [waiting, setWaiting] = useState(initial.waiting);
  const [steps, setSteps] = useState<StepDraft[]>(() => toDrafts(initial.steps));
  const [dirty, setDirty] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<SaveStatus>({ kind: 'idle' });
  const id = useId();
  const busy = status.kind === 'saving';
  const full = steps.length >= SEQUENCE_STEPS_MAX;

  const edited = () => {
    setDirty(true);
    if (status.kind === 'saved') setStatus({ kind: 'idle' });
  };
  const changeStep = (key: number, patch: Partial<StepDraft>) => {
    setSteps((all) => all.map((s) => (s.key === key ? { ...s, ...patch } : s)));
    edited();
  };
  // Adding or removing a step moves the others: the errors named by position no longer fit.
  const restructure = (next: StepDraft[]) => {
    setSteps(next);
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([path]) => !path.startsWith('steps'))));
    edited();
  };
  const addStep = () => {
    const last = steps.at(-1);
    const lastDay = last ? Number(last.delayDays) : NaN;
    const day = last ? (Number.isFinite(lastDay) ? Math.min(SEQUENCE_DELAY_MAX_DAYS, lastDay + 3) : '') : 0;
    restructure([...steps, { key: nextKey++, delayDays: String(day), subject: '', body: '' }]);
  };

  const shownBeside = (path: string) => path === 'active' || /^steps\.\d+\.(delayDays|subject|body)$/.test(path);

  async function save() {
    setStatus({ kind: 'saving' });
    const outcome = await callAction<SequenceItem>(() =>
      actions.admin.leads.saveSequence({ trigger, active, steps: steps.map((s) => ({ delayDays: s.delayDays.trim(), subject: s.subject, body: s.body })) }),
    );
    if (outcome.ok) {
      setActive(outcome.data.active);
      setSaved({ active: outcome.data.active, firstDelayDays: outcome.data.steps[0]?.delayDays ?? 0 });
      setNumbers(outcome.data.numbers);
      setWaiting(outcome.data.waiting);
      setSteps(toDrafts(outcome.data.steps));
      setErrors({});
      setDirty(false);
      setStatus({ kind: 'saved' });
      return;
    }
    setErrors(outcome.kind === 'invalid' ? outcome.fieldErrors : {});
    setStatus({ kind: 'failed', message: failedMessage(outcome, shownBeside) });
  }

  return (
    <Section id={`sequence-${trigger}`} title={label} description={SEQUENCE_TRIGGER_HINTS[trigger]}>
      <SequenceNumbersList numbers={numbers} label={label} />
      <form
        noValidate
        aria-label={label}
        data-sequence={trigger}
        className="grid gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <div className="flex flex-wrap items-start justify-between gap-3">
          <SendingSwitch
            checked={active}
            onChecked={(v) => {
              setActive(v);
              edited();
            }}
            error={errors.active}
            hintId={`${id}-switch-hint`}
            pending={pendingSwitchText(active, saved.active, numbers.running)}
          />
          <p id={`${id}-switch-hint`} className="text-sm text-slate-600">
            {steps.length === 0 ? 'No steps yet.' : `${steps.length} ${steps.length === 1 ? 'step' : 'steps'}, the last on day ${steps.at(-1)!.delayDays || '?'}.`}
          </p>
        </div>

        {steps.length === 0 && <p className="rounded-xl border border-dashed border-slate-300 p-4 text-center text-sm text-slate-600">No steps yet. Add one to write the first email.</p>}
        {steps.length > 0 && (
          <ol className="grid gap-4">
            {steps.map((s, i) => (
              <li key={s.key} data-sequence-step={i + 1}>
                <fieldset className="grid gap-3 rounded-xl border border-slate-200 p-3 sm:p-4">
                  <legend className="px-1 text-sm font-semibold text-ink">
                    Step {i + 1}
                    <span className="font-normal text-slate-600"> · day {s.delayDays || '?'}</span>
                  </legend>
                  <div className="grid gap-3 sm:grid-cols-[9rem_1fr]">
                    <TextInput
                      label="Send on day"
                      type="number"
                      inputMode="numeric"
                      min={0}
                      max={SEQUENCE_DELAY_MAX_DAYS}
                      step={1}
                      value={s.delayDays}
                      onValue={(delayDays) => changeStep(s.key, { delayDays })}
                      error={errors[`steps.${i}.delayDays`]}
                      hint={`0–${SEQUENCE_DELAY_MAX_DAYS} after enrolment`}
                    />
                    <TextInput label="Subject" value={s.subject} onValue={(subject) => changeStep(s.key, { subject })} error={errors[`steps.${i}.subject`]} maxLength={LEAD_MAIL_SUBJECT_MAX} />
                  </div>
                  <TextArea label="Message" value={s.body} onValue={(body) => changeStep(s.key, { body })} error={errors[`steps.${i}.body`]} rows={8} maxLength={LEAD_MAIL_BODY_MAX} />
                  <div>
                    <button type="button" disabled={busy} onClick={() => restructure(steps.filter((x) => x.key !== s.key))} className={dangerButton}>
                      Remove step<span className="sr-only"> {i + 1}</span>
                    </button>
                  </div>
                </fieldset>
              </li>
            ))}
          </ol>
        )}

        <div className="flex flex-wrap items-center gap-3">
          <button type="button" disabled={busy || full} onClick={addStep} aria-describedby={full ? `${id}-full` : undefined} className={secondaryButton}>
            Add a step
          </button>
          {full && (
            <p id={`${id}-full`} className="text-sm text-slate-600">
              A sequence has at most {SEQUENCE_STEPS_MAX} steps: remove one to add another.
            </p>
          )}
        </div>

        <Placeholders />

        <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-4">
          <button type="submit" disabled={busy} className={primaryButton}>
            {busy ? 'Saving…' : 'Save'}
            <span className="sr-only"> “{label}”</span>
          </button>
          <SaveStatusLine status={status} dirty={dirty} savedText={active ? 'Saved: sending.' : 'Saved: off.'} testId={`sequence-status-${trigger}`} />
        </div>
      </form>
      {saved.active ? (
        <WaitingOffer
          trigger={trigger}
          waiting={waiting}
          firstDelayDays={saved.firstDelayDays}
          timeZone={timeZone}
          onEnrolled={(result) => {
            setNumbers(result.numbers);
            setWaiting(result.waiting);
          }}
        />
      ) : (
        <WaitingWhileOff waiting={waiting} />
      )}
    </Section>
  );
}

export default function SequencesEditor({ sequences, timeZone }: { sequences: SequenceItem[]; timeZone: string }) {
  const root = useRef<HTMLDivElement>(null);
  useKeepTypedValues(root);
  return (
    <div ref={root} className="grid gap-6">
      {sequences.map((s) => (
        <SequenceCard key={s.trigger} initial={s} timeZone={timeZone} />
      ))}
    </div>
  );
}
