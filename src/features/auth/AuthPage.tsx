/**
 * /auth: "Log in" and "Sign up" tabs and "Forgot password?". Sign-up and the login of an unverified account
 * both sign the browser in and continue on /verify-email (seed section 2). Every failure shows our own
 * text (src/shared/auth-messages.ts) via the API's error code.
 *
 * Each form is a real `method="post"` form to /auth, so it works before this island loads (or without
 * script): the server answers it and renders this island again with `formState`. Once hydrated, the
 * island sends the same calls itself.
 */
import { useEffect, useRef, useState, type SubmitEvent, type KeyboardEvent } from 'react';
import { useKeepTypedValues } from '../../components/forms/keep-typed-values';
import { AUTH_MESSAGES } from '../../shared/auth-messages';
import { AUTH_FORM_PAGE, type AuthFormState } from '../../shared/form-pages';
import type { SessionState } from '../../stores/session';
import { displayName } from '../../stores/session';
import { ATTRIBUTION_INPUTS } from '../attribution/fields';
import { readAttribution } from '../attribution/store';
import { authRequest, firstErrors } from './api';
import { AuthProvider, useAuth } from './AuthProvider';
import { flagLoginBanner, savedRedirect, takeRedirect, VERIFY_EMAIL_PATH } from './redirect';
import { Alert, FormIntent, PasswordField, SubmitButton, TextField, linkButtonClass, useSubmitOnce } from './ui';

type Tab = 'login' | 'signup';
type View = { kind: 'tabs'; tab: Tab } | { kind: 'forgot'; email: string };

interface Props {
  initial?: SessionState | undefined;
  /** From the URL (?tab=signup, ?tab=forgot), so links can open the right screen. */
  initialTab?: Tab | 'forgot' | undefined;
  /** ?error= from an emailed link that failed (the /verify-email guard forwards it here when signed out). */
  linkError?: boolean | undefined;
  /** What the server said about a form posted without script. */
  formState?: AuthFormState | undefined;
}

export default function AuthPage({ initial, initialTab, linkError, formState }: Props) {
  return (
    <AuthProvider initial={initial}>
      {linkError && (
        <div className="mb-6" data-testid="auth-link-error">
          <Alert tone="error">{AUTH_MESSAGES.INVALID_LINK} If you already verified your email, just log in.</Alert>
        </div>
      )}
      <AuthScreens initialTab={initialTab ?? 'login'} formState={formState} />
    </AuthProvider>
  );
}

/** After a failed submit, move focus to the first field the server complained about. */
function focusFirstInvalid(form: HTMLFormElement | null) {
  requestAnimationFrame(() => form?.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus());
}

/** The server's answer to a form posted without script, for the form it belongs to. */
const stateFor = (formState: AuthFormState | undefined, intent: AuthFormState['intent']) => (formState?.intent === intent ? formState : undefined);

function AuthScreens({ initialTab, formState }: { initialTab: Tab | 'forgot'; formState: AuthFormState | undefined }) {
  const { user } = useAuth();
  const [view, setView] = useState<View>(
    initialTab === 'forgot' ? { kind: 'forgot', email: formState?.values.email ?? '' } : { kind: 'tabs', tab: initialTab },
  );
  const [email, setEmail] = useState(stateFor(formState, 'login')?.values.email ?? '');

  if (user) return <AlreadySignedIn />;
  if (view.kind === 'forgot') {
    return <ForgotPassword initialEmail={view.email} served={stateFor(formState, 'forgot')} onBack={() => setView({ kind: 'tabs', tab: 'login' })} />;
  }
  return (
    <Tabs
      tab={view.tab}
      onTab={(tab) => setView({ kind: 'tabs', tab })}
      login={<LoginForm email={email} onEmail={setEmail} served={stateFor(formState, 'login')} onForgot={() => setView({ kind: 'forgot', email })} />}
      signup={<SignUpForm served={stateFor(formState, 'signup')} />}
    />
  );
}

const TABS: { id: Tab; label: string }[] = [
  { id: 'login', label: 'Log in' },
  { id: 'signup', label: 'Sign up' },
];

function Tabs({ tab, onTab, login, signup }: { tab: Tab; onTab(t: Tab): void; login: React.ReactNode; signup: React.ReactNode }) {
  const refs = useRef<Record<Tab, HTMLAnchorElement | null>>({ login: null, signup: null });
  // WAI-ARIA tabs: arrow keys, Home and End move between tabs (automatic activation).
  const onKeyDown = (e: KeyboardEvent) => {
    const i = TABS.findIndex((t) => t.id === tab);
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: TABS.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    const target = TABS[(next + TABS.length) % TABS.length]!.id;
    onTab(target);
    refs.current[target]?.focus();
  };
  return (
    <div>
      <div role="tablist" aria-label="Account" className="grid grid-cols-2 rounded-full bg-slate-100 p-1" onKeyDown={onKeyDown}>
        {TABS.map((t) => (
          // Links, so that without script each tab is still one click away (?tab=signup); with script
          // they behave as WAI-ARIA tabs.
          <a
            key={t.id}
            ref={(el) => {
              refs.current[t.id] = el;
            }}
            href={t.id === 'login' ? '/auth' : `/auth?tab=${t.id}`}
            role="tab"
            id={`auth-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`auth-panel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            onClick={(e) => {
              e.preventDefault();
              onTab(t.id);
            }}
            className="inline-flex h-10 items-center justify-center rounded-full text-sm font-semibold text-slate-700 aria-selected:bg-white aria-selected:text-ink aria-selected:shadow-sm"
          >
            {t.label}
          </a>
        ))}
      </div>
      {TABS.map((t) => (
        <div key={t.id} role="tabpanel" id={`auth-panel-${t.id}`} aria-labelledby={`auth-tab-${t.id}`} hidden={tab !== t.id} className="pt-6">
          {tab === t.id && (t.id === 'login' ? login : signup)}
        </div>
      ))}
    </div>
  );
}

interface ServedProps {
  served?: AuthFormState | undefined;
}

function LoginForm({ email, onEmail, onForgot, served }: { email: string; onEmail(v: string): void; onForgot(): void } & ServedProps) {
  const { login } = useAuth();
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(served?.message);
  const [fields, setFields] = useState<Record<string, string>>(served?.fieldErrors ?? {});
  const formRef = useRef<HTMLFormElement>(null);
  useKeepTypedValues(formRef);
  const once = useSubmitOnce();

  async function submit(e: SubmitEvent) {
    e.preventDefault();
    if (!once.begin()) return;
    setBusy(true);
    setError(undefined);
    setFields({});
    const res = await login(email, password);
    if (res.ok) {
      flagLoginBanner(sessionStorage);
      window.location.assign(takeRedirect(sessionStorage, '/'));
      return; // stay busy while the next page loads
    }
    if (res.needsVerification) {
      // Signed in, not verified yet: the seed sends this member to /verify-email (the saved path waits).
      window.location.assign(VERIFY_EMAIL_PATH);
      return;
    }
    once.end();
    setBusy(false);
    const fe = res.code === 'INVALID_INPUT' ? firstErrors(res.fieldErrors) : {};
    setFields(fe);
    setError(Object.keys(fe).length ? undefined : res.message);
    focusFirstInvalid(formRef.current);
  }

  return (
    <form ref={formRef} method="post" action={AUTH_FORM_PAGE} onSubmit={submit} noValidate className="space-y-4" data-testid="login-form">
      <FormIntent intent="login" />
      {error && <Alert tone="error">{error}</Alert>}
      <TextField label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={(e) => onEmail(e.target.value)} error={fields.email} />
      <PasswordField label="Password" name="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} error={fields.password} />
      <div className="flex justify-end">
        <a
          href="/auth?tab=forgot"
          onClick={(e) => {
            e.preventDefault();
            onForgot();
          }}
          className={`text-sm ${linkButtonClass}`}
        >
          Forgot password?
        </a>
      </div>
      <SubmitButton busy={busy} busyLabel="Logging in...">
        Log in
      </SubmitButton>
    </form>
  );
}

const EMPTY_SIGNUP = { firstName: '', lastName: '', email: '', password: '', phone: '', website: '' };

function SignUpForm({ served }: ServedProps) {
  const { signup } = useAuth();
  const [values, setValues] = useState({ ...EMPTY_SIGNUP, ...served?.values, password: '' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(served?.message);
  const [fields, setFields] = useState<Record<string, string>>(served?.fieldErrors ?? {});
  const formRef = useRef<HTMLFormElement>(null);
  useKeepTypedValues(formRef);
  const once = useSubmitOnce();
  const bind = (name: keyof typeof EMPTY_SIGNUP) => ({
    name,
    value: values[name],
    error: fields[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [name]: e.target.value })),
  });

  async function submit(e: SubmitEvent) {
    e.preventDefault();
    // A double-click sends one sign-up, not two.
    if (!once.begin()) return;
    setBusy(true);
    setError(undefined);
    setFields({});
    // Seed: signupSource is the path saved before "Log in"; the server keeps it only if it is a site path.
    const res = await signup({ ...values, signupSource: savedRedirect(sessionStorage), attribution: readAttribution() });
    if (res.ok) {
      // The new account is signed in and unverified: /verify-email says where the link went.
      window.location.assign(VERIFY_EMAIL_PATH);
      return; // stay busy while the next page loads
    }
    once.end();
    setBusy(false);
    setFields(firstErrors(res.fieldErrors));
    setError(res.message);
    focusFirstInvalid(formRef.current);
  }

  return (
    <form ref={formRef} method="post" action={AUTH_FORM_PAGE} onSubmit={submit} noValidate className="space-y-4" data-testid="signup-form">
      <FormIntent intent="signup" />
      {/* Filled by the page's attribution script, so a post sent before this island hydrates carries them too. */}
      {ATTRIBUTION_INPUTS.map(([key, name]) => (
        <input key={name} type="hidden" name={name} defaultValue="" data-attribution={key} />
      ))}
      {error && <Alert tone="error">{error}</Alert>}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="First name" autoComplete="given-name" required {...bind('firstName')} />
        <TextField label="Last name" autoComplete="family-name" required {...bind('lastName')} />
      </div>
      <TextField label="Email" type="email" autoComplete="email" required {...bind('email')} />
      <PasswordField label="Password" autoComplete="new-password" required hint="At least 6 characters." {...bind('password')} />
      <TextField label="Phone (optional)" type="tel" autoComplete="tel" {...bind('phone')} />
      <TextField label="Website (optional)" type="text" inputMode="url" autoComplete="url" placeholder="example.com" {...bind('website')} />
      <SubmitButton busy={busy} busyLabel="Creating account...">
        Create account
      </SubmitButton>
      <p className="text-xs text-slate-600">
        By signing up you agree to our{' '}
        <a href="/terms" className="underline">
          terms
        </a>{' '}
        and{' '}
        <a href="/privacy" className="underline">
          privacy policy
        </a>
        .
      </p>
    </form>
  );
}

function ForgotPassword({ initialEmail, onBack, served }: { initialEmail: string; onBack(): void } & ServedProps) {
  const [email, setEmail] = useState(initialEmail);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | undefined>(
    served?.message ? { tone: served.tone, text: served.message } : undefined,
  );
  const [fieldError, setFieldError] = useState<string | undefined>(served?.fieldErrors.email);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const formRef = useRef<HTMLFormElement>(null);
  useKeepTypedValues(formRef);

  async function submit(e: SubmitEvent) {
    e.preventDefault();
    setBusy(true);
    setResult(undefined);
    setFieldError(undefined);
    // The same answer whether or not an account exists, so the form cannot be used to probe emails.
    const res = await authRequest('/request-password-reset', { email });
    setBusy(false);
    if (res.ok) setResult({ tone: 'success', text: AUTH_MESSAGES.RESET_SENT });
    else if (res.fieldErrors?.email) setFieldError(res.fieldErrors.email[0]);
    else setResult({ tone: 'error', text: res.message });
  }

  return (
    <form ref={formRef} method="post" action={AUTH_FORM_PAGE} onSubmit={submit} noValidate className="space-y-4" data-testid="forgot-form">
      <FormIntent intent="forgot" />
      <h2 ref={heading} tabIndex={-1} className="text-xl font-semibold text-ink">
        Reset your password
      </h2>
      <p className="text-sm text-slate-700">Enter your account's email and we'll send you a link to choose a new password. The link is valid for 1 hour.</p>
      {result && <Alert tone={result.tone}>{result.text}</Alert>}
      <TextField label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} error={fieldError} />
      <SubmitButton busy={busy} busyLabel="Sending...">
        Send reset link
      </SubmitButton>
      <a
        href="/auth"
        onClick={(e) => {
          e.preventDefault();
          onBack();
        }}
        className={`block text-sm ${linkButtonClass}`}
      >
        Back to log in
      </a>
    </form>
  );
}

function AlreadySignedIn() {
  const { user, logout } = useAuth();
  if (!user) return null;
  const next = !user.emailVerified
    ? { href: VERIFY_EMAIL_PATH, label: 'Verify your email' }
    : user.role === 'admin'
      ? { href: '/', label: 'Go to the home page' }
      : { href: '/dashboard', label: 'Go to your dashboard' };
  return (
    <div className="space-y-4" data-testid="already-signed-in">
      <h2 className="text-xl font-semibold text-ink">You're logged in</h2>
      <p className="text-slate-700">
        Signed in as <strong className="[overflow-wrap:anywhere] text-ink">{displayName(user)}</strong> ({user.email}).
      </p>
      <div className="flex flex-wrap gap-3">
        <a href={next.href} className="inline-flex h-11 items-center rounded-full bg-brand-600 px-5 text-sm font-semibold text-white hover:bg-brand-700">
          {next.label}
        </a>
        <button
          type="button"
          onClick={async () => {
            await logout();
            window.location.assign('/auth');
          }}
          className="inline-flex h-11 items-center rounded-full border border-slate-300 px-5 text-sm font-semibold text-ink hover:bg-slate-50"
        >
          Log out
        </button>
      </div>
    </div>
  );
}
