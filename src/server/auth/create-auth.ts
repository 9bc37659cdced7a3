/**
 * The better-auth instance: email + password with emailed verification, database sessions, rate limits
 * in the database, the admin plugin for roles and disabled accounts. Why each setting is what it is:
 * docs/decisions/003-accounts.md.
 */
import { betterAuth, type BetterAuthOptions } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { admin } from 'better-auth/plugins/admin';
import { AUTH_MESSAGES } from '../../shared/auth-messages';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, phoneField, sanitizeSitePath, websiteField } from '../../shared/auth-schemas';
import type { Database } from '../db/client';
import { accounts, rateLimits, sessions, users, verifications } from '../db/schema';
import { logger } from '../logger';
import { passwordChangedEmail, passwordResetEmail, verificationEmail, type Mailer } from '../mail';
import { recordSignUp } from '../modules/leads/service';
import { promoteIfFirstVerifiedUser } from '../modules/users/service';
import { accountPlugin } from './account-plugin';
import { disabledAccounts } from './disabled-accounts';
import { firebasePasswordUpgrade, verifyStoredPassword } from './firebase-upgrade';
import { accountChangeHooks, sessionEndHooks } from './grant-hooks';
import { signInThrottle } from './sign-in-throttle';
import {
  AUTH_BASE_PATH,
  AUTH_ERROR_PAGE,
  CLIENT_IP_HEADER,
  COOKIE_PREFIX,
  RATE_LIMITS,
  RECENT_SIGN_IN_SECONDS,
  RESET_LINK_SECONDS,
  RESET_PASSWORD_PAGE,
  SESSION_DAYS,
  SIGN_IN_PAGE,
  VERIFICATION_LINK_SECONDS,
  VERIFY_EMAIL_PAGE,
} from './constants';
import { afterHook, beforeHook } from './hooks';
import { hashPassword } from './password-hash';

export interface AuthDeps {
  db: Database;
  /** SITE_URL: links in emails. */
  siteUrl: string;
  /** Origins allowed to post (config's trustedOrigins); SITE_URL's alone when not given. */
  trustedOrigins?: readonly string[] | undefined;
  secret: string;
  mailer: Mailer;
  siteName(): Promise<string>;
}

const authLog = logger.child({ module: 'auth' });

/** Admin-plugin HTTP endpoints stay off: role changes and disabling go through modules/users. */
const DISABLED_PATHS = [
  '/change-password', // replaced by /account/change-password (the seed's form has no current password)
  '/update-user', // profile edits go through modules/users (validated, no signupSource/role writes)
  '/change-email',
  '/delete-user',
  '/admin/set-role',
  '/admin/create-user',
  '/admin/update-user',
  '/admin/remove-user',
  '/admin/set-user-password',
  '/admin/impersonate-user',
  '/admin/stop-impersonating',
  '/admin/ban-user',
  '/admin/unban-user',
  '/admin/list-users',
  '/admin/get-user',
  '/admin/list-user-sessions',
  '/admin/revoke-user-session',
  '/admin/revoke-user-sessions',
  '/admin/has-permission',
];

const optionalProfileField = { type: 'string', required: false, input: true } as const;

export function createAuth({ db, siteUrl, trustedOrigins, secret, mailer, siteName }: AuthDeps) {
  const link = (path: string) => new URL(path, siteUrl).href;
  const send = async (build: (name: string) => Parameters<Mailer['send']>[0]) => mailer.send(build(await siteName()));

  const options = {
    appName: 'agency',
    baseURL: siteUrl,
    basePath: AUTH_BASE_PATH,
    secret,
    trustedOrigins: [...(trustedOrigins ?? [new URL(siteUrl).origin])],
    // Anything better-auth would show on its own error page goes to ours, which never repeats the URL.
    onAPIError: { errorURL: link(AUTH_ERROR_PAGE) },
    telemetry: { enabled: false },
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { user: users, session: sessions, account: accounts, verification: verifications, rateLimit: rateLimits },
    }),
    user: {
      additionalFields: {
        firstName: optionalProfileField,
        lastName: optionalProfileField,
        phone: optionalProfileField,
        website: optionalProfileField,
        signupSource: optionalProfileField,
      },
    },
    emailAndPassword: {
      enabled: true,
      // Seed section 2: an unverified account may log in and is sent to /verify-email; email verification
      // gates the dashboard, prices, Actions and admin routes on the server (src/server/guards, decision 005).
      requireEmailVerification: false,
      autoSignIn: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      // Our PHC hashes, and Firebase's modified scrypt for members moved in (decision 015).
      password: { hash: (password: string) => hashPassword(password), verify: verifyStoredPassword(db) },
      resetPasswordTokenExpiresIn: RESET_LINK_SECONDS,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }) => {
        // Through better-auth's callback: it checks the token, then redirects to our page with ?token=.
        const url = link(`${AUTH_BASE_PATH}/reset-password/${token}?callbackURL=${encodeURIComponent(RESET_PASSWORD_PAGE)}`);
        await send((site) => passwordResetEmail(user, url, site));
      },
      onPasswordReset: async ({ user }) => {
        await send((site) => passwordChangedEmail(user, site, link(SIGN_IN_PAGE))).catch((err) =>
          authLog.error({ err, userId: user.id }, 'password-changed email failed'),
        );
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: VERIFICATION_LINK_SECONDS,
      sendVerificationEmail: async ({ user, token }) => {
        // Success and failure both land on /verify-email (failure with ?error=CODE).
        const url = link(`${AUTH_BASE_PATH}/verify-email?token=${token}&callbackURL=${encodeURIComponent(VERIFY_EMAIL_PAGE)}`);
        await send((site) => verificationEmail(user, url, site));
      },
      afterEmailVerification: async (user) => {
        await promoteIfFirstVerifiedUser(user.id);
      },
    },
    session: {
      expiresIn: SESSION_DAYS * 24 * 60 * 60,
      updateAge: 24 * 60 * 60,
      freshAge: RECENT_SIGN_IN_SECONDS,
      // No cookie cache: every request reads the session row, so disabling an account or changing a
      // password signs the member out at once instead of after the cache's lifetime.
      cookieCache: { enabled: false },
    },
    rateLimit: { enabled: true, storage: 'database', window: 60, max: 100, customRules: { ...RATE_LIMITS } },
    advanced: {
      cookiePrefix: COOKIE_PREFIX,
      useSecureCookies: siteUrl.startsWith('https://'),
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      // better-auth skips its own Origin/callbackURL checks under NODE_ENV=test unless told otherwise.
      disableOriginCheck: false,
      // Mail goes out after the answer (a failure is logged): a reset request for an existing account
      // takes no longer than one for an unknown address, and no sign-up waits on a slow mail server.
      backgroundTasks: { handler: (task: Promise<unknown>) => void task },
    },
    disabledPaths: DISABLED_PATHS,
    databaseHooks: {
      // Live streams end with the session they were opened with, or with the account's admin grant.
      session: sessionEndHooks,
      user: {
        update: accountChangeHooks,
        create: {
          // Runs for every way a user is created: trimmed values, blanks not stored, role always 'user'.
          before: async (user) => {
            const firstName = String(user.firstName ?? '').trim();
            const lastName = String(user.lastName ?? '').trim();
            return {
              data: {
                ...user,
                firstName,
                lastName,
                name: `${firstName} ${lastName}`.trim() || user.email,
                phone: phoneField.safeParse(user.phone).data ?? null,
                website: websiteField.safeParse(user.website).data ?? null,
                signupSource: sanitizeSitePath(user.signupSource) ?? null,
                role: 'user',
              },
            };
          },
          // A sign-up through the form (JSON or the no-script post) is a lead, with the visit's attribution
          // the form sent; accounts made any other way are not. After the user row is committed (the event
          // references it); a failure is logged and never undoes the account.
          after: async (user, context) => {
            if (context?.path !== '/sign-up/email') return;
            const body = (context.body ?? {}) as { attribution?: unknown };
            await recordSignUp({ id: user.id, email: user.email, name: user.name }, body.attribution, db);
          },
        },
      },
    },
    hooks: { before: beforeHook, after: afterHook },
    plugins: [
      admin({ defaultRole: 'user', adminRoles: ['admin'], bannedUserMessage: AUTH_MESSAGES.ACCOUNT_DISABLED }),
      accountPlugin({ onPasswordChanged: (user) => send((site) => passwordChangedEmail(user, site, link(SIGN_IN_PAGE))) }),
      disabledAccounts(),
      signInThrottle(db),
      // After a successful sign-in, a Firebase hash still on the account is replaced with argon2id.
      firebasePasswordUpgrade(db),
    ],
    // 'info' routes better-auth's own messages to pino (which filters by LOG_LEVEL) instead of console.
    logger: {
      level: 'info',
      log: (level, message, ...args) => authLog[level]({ args }, message),
    },
  } satisfies BetterAuthOptions;

  return betterAuth(options);
}

export type Auth = ReturnType<typeof createAuth>;
