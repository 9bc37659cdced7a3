/**
 * The seed's change-password form (section 5 rules and texts), in the settings dialog and on
 * /auth/change-password. It posts to that page, so a submit never puts a password in a URL, and it works
 * there without script; the island sends the call itself once loaded.
 */
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { useKeepTypedValues } from '../../components/forms/keep-typed-values';
import { AUTH_MESSAGES } from '../../shared/auth-messages';
import { CHANGE_PASSWORD_FORM_PAGE, type AuthFormState } from '../../shared/form-pages';
import { authRequest } from '../auth/api';
import { Alert, FormIntent, PasswordField } from '../auth/ui';
import { changePasswordFailureText, validateNewPassword } from './validate';

interface Props {
  /** The form's heading (its label): level 3 inside the dialog, 2 on its own page. */
  heading: { id: string; level: 2 | 3; className: string };
  /** The server's answer to a post without script. */
  served?: AuthFormState | undefined;
}

export default function ChangePasswordForm({ heading, served }: Props) {
  const Heading = heading.level === 2 ? 'h2' : 'h3';
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [busy, setBusy] = useState(false);
  // The seed disables submit while a field is empty; without script (or before it loads) the button must
  // stay usable, so the rule applies from hydration on and the server checks the fields either way.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const formRef = useRef<HTMLFormElement>(null);
  useKeepTypedValues(formRef);
  const [message, setMessage] = useState<{ tone: 'error' | 'success'; text: string } | undefined>(() => {
    if (!served) return undefined;
    // Seed order: "do not match" before "too short".
    const text = served.message ?? served.fieldErrors.confirmPassword ?? Object.values(served.fieldErrors)[0];
    return text ? { tone: served.tone, text: served.tone === 'error' ? changePasswordFailureText({ code: '', message: text }) : text } : undefined;
  });

  async function submit(e: SubmitEvent) {
    e.preventDefault();
    if (busy) return;
    setMessage(undefined);
    const invalid = validateNewPassword(newPassword, confirmPassword);
    if (invalid) return setMessage({ tone: 'error', text: invalid });
    setBusy(true);
    const res = await authRequest('/account/change-password', { newPassword, confirmPassword });
    setBusy(false);
    if (res.ok) {
      setNewPassword('');
      setConfirmPassword('');
      return setMessage({ tone: 'success', text: AUTH_MESSAGES.PASSWORD_UPDATED });
    }
    setMessage({ tone: 'error', text: changePasswordFailureText(res) });
  }

  return (
    <form ref={formRef} method="post" action={CHANGE_PASSWORD_FORM_PAGE} onSubmit={submit} noValidate className="space-y-4" aria-labelledby={heading.id}>
      <FormIntent intent="change-password" />
      <Heading id={heading.id} className={heading.className}>
        Change password
      </Heading>
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      <PasswordField label="New password" name="newPassword" autoComplete="new-password" required value={newPassword} onChange={(e) => setNewPassword(e.target.value)} />
      <PasswordField label="Confirm new password" name="confirmPassword" autoComplete="new-password" required value={confirmPassword} onChange={(e) => setConfirmPassword(e.target.value)} />
      <button
        type="submit"
        disabled={hydrated && (busy || !newPassword || !confirmPassword)}
        className="inline-flex h-11 w-full items-center justify-center rounded-full bg-brand-600 px-5 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 disabled:cursor-not-allowed disabled:bg-slate-400"
      >
        {busy ? 'Updating...' : 'Update password'}
      </button>
    </form>
  );
}
