/**
 * The account forms, posted the old way (`method="post"`, no script): log in, sign up, forgot password,
 * reset password and change password work before their island loads or with script blocked, and a
 * password never lands in a URL. Each post is turned into the JSON call the island would make and sent
 * through the same edge (handleAuthRequest: origin, body limits, rate limits, our messages), so both
 * ways in meet one set of rules. The page then redirects (Post/Redirect/Get) or shows the form again
 * with the messages and the values typed, never a password.
 */
import { firstErrors, toFailure } from '../../shared/auth-failure';
import { AUTH_MESSAGES } from '../../shared/auth-messages';
import { PASSWORD_MESSAGES } from '../../shared/auth-schemas';
import { ATTRIBUTION_FIELDS } from '../../shared/schemas/audit';
import { FORM_INTENT_FIELD, type AuthFormIntent, type AuthFormState } from '../../shared/form-pages';
import { config } from '../config';
import { AUTH_BASE_PATH, VERIFY_EMAIL_PAGE } from './constants';
import { handleAuthRequest } from './handler';

interface FormSpec {
  endpoint: string;
  /** Fields sent to the endpoint. */
  send: readonly string[];
  /** Fields shown again after a failed post (never a password). */
  keep: readonly string[];
}

const FORMS: Record<AuthFormIntent, FormSpec> = {
  login: { endpoint: '/sign-in/email', send: ['email', 'password'], keep: ['email'] },
  signup: {
    endpoint: '/sign-up/email',
    send: ['firstName', 'lastName', 'email', 'password', 'phone', 'website'],
    keep: ['firstName', 'lastName', 'email', 'phone', 'website'],
  },
  forgot: { endpoint: '/request-password-reset', send: ['email'], keep: ['email'] },
  reset: { endpoint: '/reset-password', send: ['token', 'newPassword'], keep: ['token'] },
  'change-password': { endpoint: '/account/change-password', send: ['newPassword', 'confirmPassword'], keep: [] },
  logout: { endpoint: '/sign-out', send: [], keep: [] },
};

export type FormPostResult =
  | { kind: 'redirect'; location: string; cookies: string[] }
  | { kind: 'render'; status: number; state: AuthFormState; cookies: string[] };

const isIntent = (v: unknown, allowed: readonly AuthFormIntent[]): v is AuthFormIntent =>
  typeof v === 'string' && (allowed as readonly string[]).includes(v);

function render(intent: AuthFormIntent, status: number, tone: 'success' | 'error', message: string | undefined, extra: Partial<AuthFormState> = {}): FormPostResult {
  return { kind: 'render', status, cookies: [], state: { intent, tone, message, fieldErrors: {}, values: {}, ...extra } };
}

/** Handles a post to one of the account pages; `allowed` are the forms that page shows. */
export async function submitAuthForm(request: Request, clientAddress: string | undefined, allowed: readonly AuthFormIntent[]): Promise<FormPostResult> {
  const fallback = allowed[0]!;
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return render(fallback, 400, 'error', AUTH_MESSAGES.UNKNOWN);
  }
  const intent = form.get(FORM_INTENT_FIELD);
  if (!isIntent(intent, allowed)) return render(fallback, 400, 'error', AUTH_MESSAGES.UNKNOWN);

  const spec = FORMS[intent];
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === 'string' ? v : undefined;
  };
  const body: Record<string, string> = {};
  for (const name of spec.send) {
    const v = text(name);
    if (v !== undefined) body[name] = v;
  }
  // Sign-up: the visit's attribution from the hidden inputs the page's script fills (cleaned by the lead event).
  const attribution = intent === 'signup' ? Object.fromEntries(Object.entries(ATTRIBUTION_FIELDS).map(([key, name]) => [key, text(name)])) : undefined;
  const values = Object.fromEntries(spec.keep.map((name) => [name, (text(name) ?? '').slice(0, 2048)]));

  // The reset form's confirmation is only knowable here: the endpoint receives one password.
  if (intent === 'reset' && text('newPassword') !== text('confirmPassword')) {
    return render(intent, 400, 'error', undefined, { values, fieldErrors: { confirmPassword: PASSWORD_MESSAGES.mismatch } });
  }

  const headers = new Headers(request.headers);
  headers.set('content-type', 'application/json');
  headers.set('accept', 'application/json');
  headers.delete('content-length');
  const call = new Request(new URL(`${AUTH_BASE_PATH}${spec.endpoint}`, config().SITE_URL), {
    method: 'POST',
    headers,
    body: JSON.stringify(attribution ? { ...body, attribution } : body),
  });
  const response = await handleAuthRequest(call, { clientAddress });
  const cookies = response.headers.getSetCookie();
  const data: unknown = await response.json().catch(() => null);

  // Logging out ends on the sign-in page whatever the answer (a session that had already ended included).
  if (intent === 'logout') return { kind: 'redirect', location: '/auth', cookies };
  if (!response.ok) {
    const failure = toFailure(response.status, data);
    const fieldErrors = firstErrors(failure.fieldErrors);
    // As the islands do: sign-up names the problem above the form as well; the others only beside the field.
    const message = Object.keys(fieldErrors).length && failure.code === 'INVALID_INPUT' && intent !== 'signup' ? undefined : failure.message;
    return { kind: 'render', status: failure.status, cookies, state: { intent, tone: 'error', message, fieldErrors, values } };
  }

  switch (intent) {
    case 'login': {
      const verified = (data as { user?: { emailVerified?: unknown } } | null)?.user?.emailVerified === true;
      // Without script there is no saved page to return to (it lives in sessionStorage): home.
      return { kind: 'redirect', location: verified ? '/' : VERIFY_EMAIL_PAGE, cookies };
    }
    case 'signup':
      return { kind: 'redirect', location: VERIFY_EMAIL_PAGE, cookies };
    case 'forgot':
      return render(intent, 200, 'success', AUTH_MESSAGES.RESET_SENT, { values });
    case 'reset':
      return render(intent, 200, 'success', AUTH_MESSAGES.PASSWORD_RESET);
    case 'change-password':
      return { ...render(intent, 200, 'success', AUTH_MESSAGES.PASSWORD_UPDATED), cookies };
  }
}

/** The Response a page returns for a redirect result: 303 (the next request is a GET), cookies kept. */
export function redirectResponse(result: Extract<FormPostResult, { kind: 'redirect' }>): Response {
  const headers = new Headers({ location: result.location, 'cache-control': 'private, no-store' });
  for (const cookie of result.cookies) headers.append('set-cookie', cookie);
  return new Response(null, { status: 303, headers });
}

