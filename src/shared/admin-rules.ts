/**
 * Who holds the admin grant, and who may get it without an admin's promotion (docs/decisions/007, 017).
 * Pure: the users service reads the counts inside its users-lock transaction and asks these rules.
 */

/** The seed's first-account rule: "users collection with 1 or fewer documents". */
export const FIRST_ADMIN_MAX_USERS = 1;

export interface AdminGrantFields {
  role: string;
  emailVerified: boolean;
  banned: boolean | null;
}

/**
 * An admin who can act as one: the role, a verified address, not disabled. A disabled admin keeps the role
 * (enabling gives it back) but counts for nothing: not as "the site has an admin", not as "another admin".
 */
export const isEnabledAdmin = (p: AdminGrantFields) => p.role === 'admin' && p.emailVerified && !p.banned;

/** Email addresses compare case-insensitively (better-auth stores them lower-cased). */
export const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** With ADMIN_EMAIL set, only that address becomes admin by the first-account rule or the claim link. */
export const isDesignatedAdminEmail = (email: string, adminEmail: string | undefined) => adminEmail === undefined || sameEmail(email, adminEmail);

/**
 * Whether a user who has just verified their email becomes admin by themselves. Without ADMIN_EMAIL: the
 * seed's rule, the only account on the site. With it: the account of that address, while the site has no
 * enabled admin, however many strangers signed up first (they stay members).
 */
export function becomesFirstAdmin(p: { email: string; adminEmail: string | undefined; accounts: number; enabledAdmins: number }): boolean {
  if (p.adminEmail !== undefined) return sameEmail(p.email, p.adminEmail) && p.enabledAdmins === 0;
  return p.accounts <= FIRST_ADMIN_MAX_USERS;
}

/** Demoting or disabling `target` would leave the site without an enabled admin. */
export const removesLastEnabledAdmin = (target: AdminGrantFields, otherEnabledAdmins: number) => isEnabledAdmin(target) && otherEnabledAdmins === 0;
