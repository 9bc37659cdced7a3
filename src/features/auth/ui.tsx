/** Form pieces shared by the auth pages and the settings dialog: labelled inputs with their error line. */
import { useRef, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { FieldFrame, inputClass } from '../../components/forms/field';
import { FORM_INTENT_FIELD, type AuthFormIntent } from '../../shared/form-pages';

export { Alert } from '../../components/forms/field';

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
}

export function TextField({ label, error, hint, className, ...input }: FieldProps) {
  return (
    <FieldFrame
      label={label}
      error={error}
      hint={hint}
      className={className}
      input={(a11y) => <input {...a11y} className={`${inputClass} border-slate-300`} {...input} />}
    />
  );
}

/** A password input with a show/hide toggle (seed: the settings dialog's entries have one). */
export function PasswordField({ label, error, hint, className, ...input }: FieldProps) {
  const [shown, setShown] = useState(false);
  return (
    <FieldFrame
      label={label}
      error={error}
      hint={hint}
      className={className}
      input={(a11y) => (
        <div className="relative">
          <input {...a11y} type={shown ? 'text' : 'password'} className={`${inputClass} border-slate-300 pr-20`} {...input} />
          <button
            type="button"
            onClick={() => setShown((s) => !s)}
            aria-pressed={shown}
            aria-label={`${shown ? 'Hide' : 'Show'} ${label.toLowerCase()}`}
            className="absolute inset-y-1 right-1 rounded-md px-3 text-xs font-semibold text-brand-700 hover:bg-brand-50"
          >
            {shown ? 'Hide' : 'Show'}
          </button>
        </div>
      )}
    />
  );
}

export function SubmitButton({ busy, busyLabel, children, disabled }: { busy: boolean; busyLabel: string; children: ReactNode; disabled?: boolean }) {
  return (
    <button
      type="submit"
      disabled={busy || disabled}
      className="inline-flex h-11 w-full items-center justify-center rounded-full bg-brand-600 px-5 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 disabled:cursor-not-allowed disabled:bg-slate-400"
    >
      {busy ? busyLabel : children}
    </button>
  );
}

export const linkButtonClass = 'font-semibold text-brand-700 underline-offset-2 hover:underline disabled:text-slate-500';

/** Which form a post without script came from (src/server/auth/form-posts.ts). */
export function FormIntent({ intent }: { intent: AuthFormIntent }) {
  return <input type="hidden" name={FORM_INTENT_FIELD} value={intent} />;
}

/**
 * One submit at a time: a second click before React re-renders the disabled button would otherwise
 * send the form twice (a double-clicked sign-up). `begin()` is false while one is under way.
 */
export function useSubmitOnce() {
  const busy = useRef(false);
  return {
    begin() {
      if (busy.current) return false;
      busy.current = true;
      return true;
    },
    end() {
      busy.current = false;
    },
  };
}
