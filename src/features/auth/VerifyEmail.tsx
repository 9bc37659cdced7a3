/**
 * /verify-email, for a signed-in member (the guard sends visitors to /auth). Unverified: where the link
 * went, "Resend email" (rate-limited on the server) and "I've verified" (seed: "Email not verified yet"
 * while it still is). Verified, e.g. right after the emailed link signed this browser in: continue.
 * `?error=` from a failed link shows the invalid-link message above the resend button.
 */
import { useState } from 'react';
import { AUTH_MESSAGES } from '../../shared/auth-messages';
import type { SessionState } from '../../stores/session';
import { AuthProvider, useAuth } from './AuthProvider';
import { afterVerificationPath } from './redirect';
import { Alert } from './ui';

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
  if (!user) {
    // Signed out in another tab since the page was served.
    return (
      <Alert tone="error">
        You're logged out.{' '}
        <a href="/auth" className="font-semibold underline">
          Log in
        </a>{' '}
        to verify your email.
      </Alert>
    );
  }
  if (user.emailVerified && user.role === 'admin') {
    // The first verified account becomes the site's admin by itself (or the owner's ADMIN_EMAIL account):
    // say so, and lead to where the owner's work starts.
    return (
      <div className="space-y-4" data-testid="verified">
        <Alert tone="success">Your email is verified and you're logged in.</Alert>
        <p className="text-slate-700" data-testid="verified-admin">
          You are this site's admin: from the admin you edit the texts, services and articles, answer the chat and follow your leads.
        </p>
        <div className="flex flex-col gap-3 sm:flex-row">
          <a href="/admin" className={primary}>
            Go to the admin
          </a>
          <a href="/" className={secondary}>
            View the site
          </a>
        </div>
      </div>
    );
  }
  if (user.emailVerified) {
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
  return <VerifyPending email={user.email} linkError={linkError} />;
}

function VerifyPending({ email, linkError }: { email: string; linkError: boolean }) {
  const { sendVerificationEmail, checkEmailVerification, logout } = useAuth();
  const [busy, setBusy] = useState<'resend' | 'check'>();
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string }>();

  async function resend() {
    setBusy('resend');
    setResult(undefined);
    const res = await sendVerificationEmail();
    setBusy(undefined);
    setResult(res.ok ? { tone: 'success', text: AUTH_MESSAGES.VERIFICATION_SENT } : { tone: 'error', text: res.message });
  }

  async function check() {
    setBusy('check');
    setResult(undefined);
    const res = await checkEmailVerification();
    if (res.ok) {
      window.location.assign(afterVerificationPath(sessionStorage, res.user.role));
      return; // stay busy while the next page loads
    }
    setBusy(undefined);
    setResult({ tone: 'error', text: res.message });
  }

  return (
    <div className="space-y-5" data-testid="verify-pending">
      {linkError && (
        <Alert tone="error" testId="verify-link-error">
          {AUTH_MESSAGES.INVALID_LINK}
        </Alert>
      )}
      <p className="text-slate-700">
        We sent a verification link to <strong className="[overflow-wrap:anywhere] text-ink">{email}</strong>. Open it to activate your account; the link is
        valid for 24 hours. Opened it on another device? Press "I've verified".
      </p>
      <p className="text-sm text-slate-700">No email? Check your spam folder, or send it again.</p>
      {result && (
        <Alert tone={result.tone} testId="verify-result">
          {result.text}
        </Alert>
      )}
      <div className="flex flex-col gap-3 sm:flex-row">
        <button type="button" className={primary} onClick={check} disabled={busy !== undefined}>
          {busy === 'check' ? 'Checking...' : "I've verified"}
        </button>
        <button type="button" className={secondary} onClick={resend} disabled={busy !== undefined}>
          {busy === 'resend' ? 'Sending...' : 'Resend email'}
        </button>
      </div>
      <p className="text-sm text-slate-700">
        Wrong address?{' '}
        <button
          type="button"
          className="font-semibold text-brand-700 underline"
          onClick={async () => {
            await logout();
            window.location.assign('/auth?tab=signup');
          }}
        >
          Log out and sign up again
        </button>
        .
      </p>
    </div>
  );
}
