/**
 * /auth/reset-password?token=…: choose a new password. Expired, used or forged links get one clear message.
 * The form posts to this page, so it works before the island loads; `formState` is the server's answer.
 */
import { useRef, useState, type SubmitEvent } from 'react';
import { useKeepTypedValues } from '../../components/forms/keep-typed-values';
import { AUTH_MESSAGES } from '../../shared/auth-messages';
import { PASSWORD_MESSAGES, MIN_PASSWORD_LENGTH } from '../../shared/auth-schemas';
import { RESET_PASSWORD_FORM_PAGE, type AuthFormState } from '../../shared/form-pages';
import { authRequest, firstErrors } from './api';
import { Alert, FormIntent, PasswordField, SubmitButton } from './ui';

const INVALID_LINK_CODES = new Set(['INVALID_TOKEN', 'TOKEN_EXPIRED', 'INVALID_LINK']);

type State = 'form' | 'invalid' | 'done';

function initialState(token: string | undefined, linkError: boolean | undefined, served: AuthFormState | undefined): State {
  if (served?.tone === 'success') return 'done';
  if (linkError || !token) return 'invalid';
  if (served?.message === AUTH_MESSAGES.INVALID_LINK) return 'invalid';
  return 'form';
}

const buttonClass = 'inline-flex h-11 items-center justify-center rounded-full bg-brand-600 px-5 text-sm font-semibold text-white hover:bg-brand-700';

interface Props {
  token?: string | undefined;
  linkError?: boolean | undefined;
  formState?: AuthFormState | undefined;
}

export default function ResetPassword({ token, linkError, formState }: Props) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [fields, setFields] = useState<Record<string, string>>(formState?.fieldErrors ?? {});
  const [error, setError] = useState<string | undefined>(formState?.tone === 'error' ? formState.message : undefined);
  const [state, setState] = useState<State>(initialState(token, linkError, formState));
  const formRef = useRef<HTMLFormElement>(null);
  useKeepTypedValues(formRef);

  if (state === 'invalid') {
    return (
      <div className="space-y-4" data-testid="reset-invalid">
        <Alert tone="error">{AUTH_MESSAGES.INVALID_LINK}</Alert>
        <p className="text-sm text-slate-700">Reset links work once and for 1 hour. You can ask for a new one below.</p>
        <a href="/auth?tab=forgot" className={buttonClass}>
          Request a new link
        </a>
      </div>
    );
  }
  if (state === 'done') {
    return (
      <div className="space-y-4" data-testid="reset-done">
        <Alert tone="success">{AUTH_MESSAGES.PASSWORD_RESET}</Alert>
        <a href="/auth" className={buttonClass}>
          Log in
        </a>
      </div>
    );
  }

  async function submit(e: SubmitEvent) {
    e.preventDefault();
    setError(undefined);
    // The server checks length too; matching is only knowable here (it receives one password).
    const local: Record<string, string> = {};
    if (password.length < MIN_PASSWORD_LENGTH) local.newPassword = password ? PASSWORD_MESSAGES.tooShort : PASSWORD_MESSAGES.required;
    if (password !== confirm) local.confirmPassword = PASSWORD_MESSAGES.mismatch;
    setFields(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    const res = await authRequest('/reset-password', { token, newPassword: password });
    setBusy(false);
    if (res.ok) return setState('done');
    if (INVALID_LINK_CODES.has(res.code)) return setState('invalid');
    setFields(firstErrors(res.fieldErrors));
    if (!res.fieldErrors?.newPassword) setError(res.message);
  }

  return (
    <form ref={formRef} method="post" action={RESET_PASSWORD_FORM_PAGE} onSubmit={submit} noValidate className="space-y-4" data-testid="reset-form">
      <FormIntent intent="reset" />
      <input type="hidden" name="token" value={token} />
      {error && <Alert tone="error">{error}</Alert>}
      <PasswordField label="New password" name="newPassword" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} error={fields.newPassword} hint="At least 6 characters." />
      <PasswordField label="Confirm new password" name="confirmPassword" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} error={fields.confirmPassword} />
      <SubmitButton busy={busy} busyLabel="Saving...">
        Set new password
      </SubmitButton>
    </form>
  );
}
