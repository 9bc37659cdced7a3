/**
 * Who holds the admin grant (docs/decisions/017). Pure: the users service reads the counts inside its
 * users-lock transaction and asks these rules.
 */

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

/** Demoting or disabling `target` would leave the site without an enabled admin. */
export const removesLastEnabledAdmin = (target: AdminGrantFields, otherEnabledAdmins: number) => isEnabledAdmin(target) && otherEnabledAdmins === 0;
