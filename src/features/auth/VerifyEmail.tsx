/**
 * /verify-email. Without a session (verification comes before any session): where the link went, resend,
 * "I've verified". With one (the emailed link signs the browser in): verified, continue. `?error=` from a
 * failed link shows the invalid-link message with a way forward.
 */
import { useEffect, useState } from 'react';
import { AUTH_MESSAGES } from '../../shared/auth-messages';
import type { SessionState } from '../../stores/session';
import { AuthProvider, useAuth } from './AuthProvider';
import { afterVerificationPath, pendingEmail } from './redirect';
import { Alert, TextField } from './ui';

const primary = 'inline-flex h-11 items-center justify-center rounded-full bg-brand-600 px-5 text-sm font-semibold text-white hover:bg-brand-700 disabled:bg-slate-400';
const secondary = 'inline-flex h-11 items-center justify-center rounded-full border border-slate-300 px-5 text-sm font-semibold text-ink hover:bg-slate-50 disabled:text-slate-500';

export default function VerifyEmail({ initial, linkError }: { initial: SessionState; linkError?: boolean | undefined }) {
  return (
    <AuthProvider initial={initial}>
      <VerifyScreen linkError={linkError ?? false} />
    </AuthProvider>
  );
}

function VerifyScreen({ linkError }: { linkError: boolean }) {
  const { user } = useAuth();
  if (user?.emailVerified) {
    return (
      <div className="space-y-4" data-testid="verified">
        <Alert tone="success">Your email is verified and you're logged in.</Alert>
        <a
          href={user.role === 'admin' ? '/' : '/dashboard'}
          onClick={(e) => {
            e.preventDefault();
            window.location.assign(afterVerificationPath(sessionStorage, user.role));
          }}
          className={primary}
        >
          Continue
        </a>
      </div>
    );
  }
  return <VerifyPending linkError={linkError} />;
}

/**
 * Waiting for the emailed link: where it went, "Resend email", "I've verified". Also shown on /auth after
 * an unverified login, since such a member has no session (and the /verify-email guard wants one).
 */
export function VerifyPending({ linkError = false, email: givenEmail }: { linkError?: boolean; email?: string | undefined }) {
  const { sendVerificationEmail, checkEmailVerification } = useAuth();
  const [email, setEmail] = useState(givenEmail ?? '');
  const [knownEmail, setKnownEmail] = useState<string | undefined>(givenEmail);
  const [busy, setBusy] = useState<'resend' | 'check'>();
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string; offerLogin?: boolean }>();

  // sessionStorage exists only in the browser: read after hydration so server and client HTML agree.
  useEffect(() => {
    if (givenEmail) return;
    const pending = pendingEmail(sessionStorage);
    if (pending) {
      setKnownEmail(pending);
      setEmail(pending);
    }
  }, [givenEmail]);

  async function resend() {
    setBusy('resend');
    setResult(undefined);
    const res = await sendVerificationEmail(email.trim() || undefined);
    setBusy(undefined);
    if (res.ok) {
      setKnownEmail(email.trim().toLowerCase());
      setResult({ tone: 'success', text: AUTH_MESSAGES.VERIFICATION_SENT });
    } else {
      setResult({ tone: 'error', text: res.fieldErrors?.email?.[0] ?? res.message });
    }
  }

  async function check() {
    setBusy('check');
    setResult(undefined);
    const res = await checkEmailVerification();
    setBusy(undefined);
    if (res.ok) {
      window.location.assign(afterVerificationPath(sessionStorage, res.user.role));
      return;
    }
    setResult({ tone: 'error', text: res.message, offerLogin: true });
  }

  return (
    <div className="space-y-5" data-testid="verify-pending">
      {linkError && (
        <Alert tone="error" testId="verify-link-error">
          {AUTH_MESSAGES.INVALID_LINK}
        </Alert>
      )}
      <p className="text-slate-700">
        {knownEmail ? (
          <>
            We sent a verification link to <strong className="[overflow-wrap:anywhere] text-ink">{knownEmail}</strong>.
          </>
        ) : (
          <>We sent a verification link to the email address you signed up with.</>
        )}{' '}
        Open it on this device to activate your account and log in. If you already verified, simply{' '}
        <a href="/auth" className="font-semibold text-brand-700 underline">
          log in
        </a>
        .
      </p>
      {result && (
        <Alert tone={result.tone}>
          {result.text}
          {result.offerLogin && <span className="block pt-1 text-slate-700">Opened the link on another device? Then log in here.</span>}
        </Alert>
      )}
      {!knownEmail && <TextField label="Email" type="email" name="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />}
      <div className="flex flex-col gap-3 sm:flex-row">
        <button type="button" className={primary} onClick={check} disabled={busy !== undefined}>
          {busy === 'check' ? 'Checking...' : "I've verified"}
        </button>
        <button type="button" className={secondary} onClick={resend} disabled={busy !== undefined || !email.trim()}>
          {busy === 'resend' ? 'Sending...' : 'Resend email'}
        </button>
      </div>
    </div>
  );
}
