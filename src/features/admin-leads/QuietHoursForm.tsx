/**
 * The sequences' quiet hours (/admin/leads/sequences): no follow-up email is sent from `start` to `end` in
 * the site's time zone (the span may cross midnight); a step due then waits until they end.
 */
import { actions } from 'astro:actions';
import { useId, useRef, useState } from 'react';
import { callAction } from '../../components/admin/call-action';
import { Section } from '../../components/admin/fields';
import { inputClass } from '../../components/forms/field';
import { useKeepTypedValues } from '../../components/forms/keep-typed-values';
import type { QuietHours } from '../../shared/schemas/lead-sequences';
import { failedMessage, SaveStatusLine, type SaveStatus } from './SequencesEditor';

/** A time of day ("20:00"); its error line is below the sentence it sits in (`${id}-error`). */
function TimeField({ id, value, onValue, error, describedBy }: { id: string; value: string; onValue(v: string): void; error: string | undefined; describedBy: string }) {
  return (
    <span className="w-36">
      <input
        id={id}
        type="time"
        required
        value={value}
        onChange={(e) => onValue(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error ${describedBy}` : describedBy}
        className={`${inputClass} border-slate-300`}
      />
    </span>
  );
}

export default function QuietHoursForm({ quietHours, timeZone, timeZoneHref }: { quietHours: QuietHours; timeZone: string; timeZoneHref: string }) {
  const root = useRef<HTMLFormElement>(null);
  useKeepTypedValues(root);
  const [value, setValue] = useState(quietHours);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<SaveStatus>({ kind: 'idle' });
  const [dirty, setDirty] = useState(false);
  const id = useId();
  const busy = status.kind === 'saving';

  const change = (patch: Partial<QuietHours>) => {
    setValue((v) => ({ ...v, ...patch }));
    setDirty(true);
    if (status.kind === 'saved') setStatus({ kind: 'idle' });
  };

  async function save() {
    setStatus({ kind: 'saving' });
    const outcome = await callAction<QuietHours>(() => actions.admin.leads.saveQuietHours(value));
    if (outcome.ok) {
      setValue(outcome.data);
      setErrors({});
      setDirty(false);
      setStatus({ kind: 'saved' });
      return;
    }
    setErrors(outcome.kind === 'invalid' ? outcome.fieldErrors : {});
    setStatus({ kind: 'failed', message: failedMessage(outcome, (path) => path === 'start' || path === 'end') });
  }

  const fieldErrors = (['start', 'end'] as const).filter((f) => errors[f]);
  return (
    <Section title="Quiet hours" description="A follow-up email due in these hours waits until they end. The hours may span midnight.">
      <form
        ref={root}
        noValidate
        aria-label="Quiet hours"
        data-quiet-hours
        className="grid gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <div>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-2 text-sm text-slate-800">
            <label htmlFor={`${id}-start`}>No follow-up emails between</label>
            <TimeField id={`${id}-start`} value={value.start} onValue={(start) => change({ start })} error={errors.start} describedBy={`${id}-zone`} />
            <label htmlFor={`${id}-end`}>
              and<span className="sr-only"> (end of the quiet hours)</span>
            </label>
            <TimeField id={`${id}-end`} value={value.end} onValue={(end) => change({ end })} error={errors.end} describedBy={`${id}-zone`} />
          </div>
          <p id={`${id}-zone`} className="mt-2 text-sm text-slate-600">
            in the site’s time zone ({timeZone}, chosen in{' '}
            <a href={timeZoneHref} className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800">
              Settings
            </a>
            ).
          </p>
          {fieldErrors.map((f) => (
            <p key={f} id={`${id}-${f}-error`} className="mt-1 text-sm text-red-700">
              {errors[f]}
            </p>
          ))}
        </div>
        <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-4">
          <button type="submit" disabled={busy} className="inline-flex h-10 items-center rounded-lg bg-brand-600 px-4 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-60">
            {busy ? 'Saving…' : 'Save'}
            <span className="sr-only"> quiet hours</span>
          </button>
          <SaveStatusLine status={status} dirty={dirty} savedText={`Saved: quiet from ${value.start} to ${value.end}.`} testId="quiet-hours-status" />
        </div>
      </form>
    </Section>
  );
}
