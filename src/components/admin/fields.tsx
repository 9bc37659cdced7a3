/**
 * The admin editors' inputs: labelled, with hint and error line (FieldFrame), the error read out with the
 * field. Values are plain strings, numbers or booleans; the shared schema decides what is valid.
 */
import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';
import { FieldFrame, inputClass } from '../forms/field';

interface Common {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
  className?: string | undefined;
}

const textInputClass = `${inputClass} border-slate-300`;

export function TextInput({ label, error, hint, className, value, onValue, ...rest }: Common & { value: string; onValue(v: string): void } & Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'id'>) {
  return (
    <FieldFrame
      label={label}
      error={error}
      hint={hint}
      className={className}
      input={(a11y) => <input {...a11y} {...rest} value={value} onChange={(e) => onValue(e.target.value)} className={textInputClass} />}
    />
  );
}

export function TextArea({ label, error, hint, className, value, onValue, rows = 4, ...rest }: Common & { value: string; onValue(v: string): void } & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'onChange' | 'id'>) {
  return (
    <FieldFrame
      label={label}
      error={error}
      hint={hint}
      className={className}
      input={(a11y) => (
        <textarea {...a11y} {...rest} rows={rows} value={value} onChange={(e) => onValue(e.target.value)} className={`${textInputClass} h-auto py-2 leading-6`} />
      )}
    />
  );
}

/**
 * A money or count field. The text typed is kept as typed (so "12." can become "12.5"); the value handed
 * on is a number, null when empty, or the raw text when it is not a number (the schema then says so).
 */
export function NumberInput({ label, error, hint, className, value, onValue, prefix }: Common & { value: number | null | string; onValue(v: number | null | string): void; prefix?: string }) {
  const shown = value === null ? '' : String(value);
  return (
    <FieldFrame
      label={label}
      error={error}
      hint={hint}
      className={className}
      input={(a11y) => (
        <div className="relative">
          {prefix && <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-sm text-slate-500">{prefix}</span>}
          <input
            {...a11y}
            type="text"
            inputMode="decimal"
            value={shown}
            onChange={(e) => {
              const text = e.target.value.trim();
              const n = Number(text.replace(/,/g, ''));
              onValue(text === '' ? null : Number.isFinite(n) && /^-?[\d,]*\.?\d*$/.test(text) ? n : text);
            }}
            className={`${textInputClass} ${prefix ? 'pl-12' : ''}`}
          />
        </div>
      )}
    />
  );
}

export function Toggle({ label, hint, checked, onChecked }: { label: ReactNode; hint?: ReactNode; checked: boolean; onChecked(v: boolean): void }) {
  return (
    <label className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-200 bg-white p-3">
      <input type="checkbox" checked={checked} onChange={(e) => onChecked(e.target.checked)} className="mt-0.5 h-5 w-5 flex-none accent-brand-600" />
      <span className="min-w-0">
        <span className="block text-sm font-medium text-slate-800">{label}</span>
        {hint && <span className="mt-0.5 block text-xs text-slate-600">{hint}</span>}
      </span>
    </label>
  );
}

/** A titled group of fields (a card on the editor page). */
export function Section({ id, title, description, children }: { id?: string; title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <section id={id} className="scroll-mt-28 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6 lg:scroll-mt-20">
      <h2 className="text-base font-semibold text-ink">{title}</h2>
      {description && <p className="mt-1 text-sm text-slate-600">{description}</p>}
      <div className="mt-4 space-y-4">{children}</div>
    </section>
  );
}

/** One choice of a few (a native select: keyboard and screen readers know it). */
export function SelectInput<V extends string>({
  label,
  error,
  hint,
  className,
  value,
  onValue,
  options,
}: Common & { value: V; onValue(v: V): void; options: readonly { value: V; label: string }[] }) {
  return (
    <FieldFrame
      label={label}
      error={error}
      hint={hint}
      className={className}
      input={(a11y) => (
        <select {...a11y} value={value} onChange={(e) => onValue(e.target.value as V)} className={`${textInputClass} pr-8`}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    />
  );
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO instant as the browser's local date-time field shows it ("2025-03-14T09:30"). */
export function toLocalDateTime(iso: string): string {
  const d = new Date(iso);
  if (!iso || Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * A date and time in the admin's own time zone; the value handed on is the ISO instant (UTC), or '' when
 * cleared, so what is stored does not depend on where the admin sits.
 */
export function DateTimeInput({ label, error, hint, className, value, onValue }: Common & { value: string; onValue(v: string): void }) {
  return (
    <FieldFrame
      label={label}
      error={error}
      hint={hint}
      className={className}
      input={(a11y) => (
        <input
          {...a11y}
          type="datetime-local"
          value={toLocalDateTime(value)}
          onChange={(e) => {
            const d = new Date(e.target.value);
            onValue(e.target.value && !Number.isNaN(d.getTime()) ? d.toISOString() : '');
          }}
          className={textInputClass}
        />
      )}
    />
  );
}
