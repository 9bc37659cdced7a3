/**
 * Pages whose forms post to themselves, so they work before (or without) their island's script: a submit
 * on a slow phone never turns into a GET with the password in the address bar. The middleware lets POST
 * through to these pages only.
 */
export const AUTH_FORM_PAGE = '/auth';
export const RESET_PASSWORD_FORM_PAGE = '/auth/reset-password';
export const CHANGE_PASSWORD_FORM_PAGE = '/auth/change-password';
export const ADMIN_CLAIM_PAGE = '/claim-admin';
/** The free audit request (src/pages/free-audit.astro). */
export const FREE_AUDIT_FORM_PAGE = '/free-audit';
/** An unsubscribe link's page: its button, and a mail client's one-click POST (RFC 8058), post to it. */
export const UNSUBSCRIBE_FORM_PAGES = '/unsubscribe/*';

export const FORM_POST_PAGES: ReadonlySet<string> = new Set([
  AUTH_FORM_PAGE,
  RESET_PASSWORD_FORM_PAGE,
  CHANGE_PASSWORD_FORM_PAGE,
  ADMIN_CLAIM_PAGE,
  FREE_AUDIT_FORM_PAGE,
  UNSUBSCRIBE_FORM_PAGES,
]);

/** Whether a page path takes its form's POST ('/x/*' entries: any path under /x/). */
export const isFormPostPage = (path: string) => FORM_POST_PAGES.has(path) || [...FORM_POST_PAGES].some((p) => p.endsWith('/*') && path.startsWith(p.slice(0, -1)) && path.length > p.length - 1);

/** The hidden field that says which of a page's forms was sent. */
export const FORM_INTENT_FIELD = 'intent';

export type AuthFormIntent = 'login' | 'signup' | 'forgot' | 'reset' | 'change-password' | 'logout';

/**
 * What a form post left for the page to show: the message, field errors and the values to put back
 * (never a password). The island renders from it, with or without script.
 */
export interface AuthFormState {
  intent: AuthFormIntent;
  tone: 'success' | 'error';
  message?: string | undefined;
  fieldErrors: Record<string, string>;
  values: Record<string, string>;
}
