/**
 * The account emails: plain text first (what the outbox log and simple clients show), plus a minimal
 * HTML part. Every interpolated value is escaped in HTML; links are built by the caller from SITE_URL.
 *
 * A mail to an address nobody has confirmed (the verification mail, a password reset: anyone can ask for
 * either with a stranger's address) carries no text a visitor typed, not even the account's name, so it
 * cannot relay a phisher's words; only the password-changed notice, sent after its owner signed in or
 * used an emailed link, greets by name.
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Where replies go, when not to the site's From (an admin writing to a lead). */
  replyTo?: string;
  /** Extra headers: a sequence mail's List-Unsubscribe and List-Unsubscribe-Post (RFC 8058). */
  headers?: Record<string, string>;
}

interface Recipient {
  email: string;
  name?: string | null;
}

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const greeting = (to: Recipient) => `Hello${to.name?.trim() ? ` ${to.name.trim()}` : ''},`;

/** The recipient as a mail to an unconfirmed address may name them: by nothing they typed. */
const unconfirmed = (to: Recipient): Recipient => ({ email: to.email });

interface MailLink {
  label: string;
  url: string;
}

/** A plain mail: a greeting, paragraphs of the site's own words, then each link on its own line. */
export function compose(to: Recipient, subject: string, paragraphs: string[], link?: MailLink | readonly MailLink[]): MailMessage {
  const links = link === undefined ? [] : 'url' in link ? [link] : link;
  const text = [greeting(to), '', ...paragraphs.flatMap((p) => [p, '']), ...links.flatMap((l) => [`${l.label}: ${l.url}`, ''])].join('\n');
  const html = [
    `<p>${escapeHtml(greeting(to))}</p>`,
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...links.map((l) => `<p><a href="${escapeHtml(l.url)}">${escapeHtml(l.label)}</a></p>`),
  ].join('\n');
  return { to: to.email, subject, text, html };
}

export function verificationEmail(to: Recipient, url: string, siteName: string): MailMessage {
  return compose(
    unconfirmed(to),
    `Confirm your email for ${siteName}`,
    [
      `Please confirm your email address to finish creating your ${siteName} account. The link signs you in and is valid for 24 hours.`,
      'If you did not create an account, you can ignore this email.',
    ],
    { label: 'Confirm your email', url },
  );
}

export function passwordResetEmail(to: Recipient, url: string, siteName: string): MailMessage {
  return compose(
    unconfirmed(to),
    `Reset your ${siteName} password`,
    [
      'Someone asked to reset the password of your account. The link is valid for one hour and works once.',
      'If it was not you, ignore this email: your password stays the same.',
    ],
    { label: 'Choose a new password', url },
  );
}

export function passwordChangedEmail(to: Recipient, siteName: string, signInUrl: string): MailMessage {
  return compose(
    to,
    `Your ${siteName} password was changed`,
    [
      'The password of your account was just changed, and your other sessions were signed out.',
      'If you did not do this, reset your password right away and contact us.',
    ],
    { label: 'Log in', url: signInUrl },
  );
}
