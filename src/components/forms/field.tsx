/**
 * The frame every form field shares (label, hint, error line, the ids that tie them to the input) and the
 * status line, for the account forms and the admin editors alike.
 */
import { useId, type ReactNode } from 'react';

export const inputClass =
  'block h-11 w-full rounded-lg border bg-white px-3 text-base text-ink shadow-sm placeholder:text-slate-400 focus:border-brand-600 focus:outline-2 focus:outline-offset-0 focus:outline-brand-600 aria-[invalid=true]:border-red-600 sm:text-sm';

/** The label, hint and error line around one input; `input` gets the ids that tie them together. */
export function FieldFrame({
  label,
  error,
  hint,
  className,
  input,
}: { label: ReactNode; error?: string | undefined; hint?: ReactNode; className?: string | undefined } & {
  input: (a11y: { id: string; 'aria-invalid': true | undefined; 'aria-describedby': string | undefined }) => ReactNode;
}) {
  const id = useId();
  // The error takes the hint's place on screen, so it takes its place in what the input is described by.
  const described = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-800">
        {label}
      </label>
      {input({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': described })}
      {hint && !error && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
          {hint}
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

/** Status lines are live regions so screen readers hear the result of a submit. */
export function Alert({ tone, children, testId }: { tone: 'error' | 'success' | 'info'; children: ReactNode; testId?: string }) {
  const styles = {
    error: 'border-red-200 bg-red-50 text-red-800',
    success: 'border-green-200 bg-green-50 text-green-800',
    info: 'border-brand-100 bg-brand-50 text-brand-900',
  }[tone];
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} data-testid={testId} className={`rounded-lg border px-4 py-3 text-sm ${styles}`}>
      {children}
    </div>
  );
}

