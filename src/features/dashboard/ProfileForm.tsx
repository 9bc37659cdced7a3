/**
 * The dashboard's profile card form: first and last name, phone, website. Saves through the
 * account.updateProfile Action; the same Zod schema runs on the server, which answers field errors.
 */
import { actions, isInputError } from 'astro:actions';
import { useId, useRef, useState, type SubmitEvent } from 'react';
import { useKeepTypedValues } from '../../components/forms/keep-typed-values';
import { loadSession } from '../../stores/session';

export interface ProfileValues {
  firstName: string;
  lastName: string;
  phone: string;
  website: string;
}

type Field = keyof ProfileValues;
type Status = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'error'; message: string };

const FIELDS: { name: Field; label: string; type: string; autoComplete: string; optional?: boolean; hint?: string }[] = [
  { name: 'firstName', label: 'First name', type: 'text', autoComplete: 'given-name' },
  { name: 'lastName', label: 'Last name', type: 'text', autoComplete: 'family-name' },
  { name: 'phone', label: 'Phone', type: 'tel', autoComplete: 'tel', optional: true },
  { name: 'website', label: 'Website', type: 'text', autoComplete: 'url', optional: true, hint: 'e.g. example.com' },
];

export default function ProfileForm({ initial }: { initial: ProfileValues }) {
  const id = useId();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const formRef = useRef<HTMLFormElement>(null);
  useKeepTypedValues(formRef);

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setStatus({ kind: 'saving' });
    setErrors({});
    const { data, error } = await actions.account.updateProfile(values);
    if (error) {
      if (isInputError(error)) {
        const next: Partial<Record<Field, string>> = {};
        for (const f of FIELDS) {
          const message = error.fields[f.name]?.[0];
          if (message) next[f.name] = message;
        }
        setErrors(next);
        setStatus({ kind: 'error', message: 'Please correct the highlighted fields.' });
        // Move focus to the first field with a problem, so keyboard and screen-reader users land on it.
        const first = FIELDS.find((f) => next[f.name]);
        if (first) document.getElementById(`${id}-${first.name}`)?.focus();
      } else {
        setStatus({ kind: 'error', message: error.message || 'Something went wrong. Please try again.' });
      }
      return;
    }
    // Show what the server stored (trimmed; "example.com" becomes "https://example.com"; blank removed).
    setValues({ firstName: data.firstName, lastName: data.lastName, phone: data.phone ?? '', website: data.website ?? '' });
    setStatus({ kind: 'saved' });
    // The navbar shows the name from the session store.
    void loadSession(true);
    const greeting = document.querySelector('[data-welcome-name]');
    if (greeting) greeting.textContent = data.firstName;
  }

  const busy = status.kind === 'saving';
  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-2">
      {FIELDS.map((f) => {
        const error = errors[f.name];
        const describedBy = [f.hint && `${id}-${f.name}-hint`, error && `${id}-${f.name}-error`].filter(Boolean).join(' ');
        return (
          <div key={f.name} className="flex flex-col gap-1.5">
            <label htmlFor={`${id}-${f.name}`} className="text-sm font-medium text-slate-800">
              {f.label}
              {f.optional && <span className="font-normal text-slate-500"> (optional)</span>}
            </label>
            <input
              id={`${id}-${f.name}`}
              name={f.name}
              type={f.type}
              autoComplete={f.autoComplete}
              required={!f.optional}
              maxLength={f.name === 'website' ? 2048 : f.name === 'phone' ? 40 : 100}
              value={values[f.name]}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setValues((v) => ({ ...v, [f.name]: value }));
                if (status.kind === 'saved') setStatus({ kind: 'idle' });
              }}
              aria-invalid={error ? true : undefined}
              aria-describedby={describedBy || undefined}
              className={`min-h-11 rounded-lg border bg-white px-3 py-2 text-base text-ink shadow-sm transition outline-none focus-visible:ring-2 focus-visible:ring-brand-500 motion-reduce:transition-none ${
                error ? 'border-red-600' : 'border-slate-300 focus-visible:border-brand-500'
              }`}
            />
            {f.hint && (
              <p id={`${id}-${f.name}-hint`} className="text-xs text-slate-500">
                {f.hint}
              </p>
            )}
            {error && (
              <p id={`${id}-${f.name}-error`} className="text-sm text-red-700">
                {error}
              </p>
            )}
          </div>
        );
      })}
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
        <button
          type="submit"
          disabled={busy}
          className="inline-flex min-h-11 items-center justify-center rounded-lg bg-brand-600 px-5 py-2 text-sm font-semibold text-white shadow-sm transition hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-60 motion-reduce:transition-none"
        >
          {busy ? 'Saving...' : 'Save profile'}
        </button>
        <p id={`${id}-status`} role="status" aria-live="polite" className="text-sm">
          {status.kind === 'saved' && <span className="font-medium text-emerald-700">Profile saved.</span>}
          {status.kind === 'error' && <span className="font-medium text-red-700">{status.message}</span>}
        </p>
      </div>
    </form>
  );
}
