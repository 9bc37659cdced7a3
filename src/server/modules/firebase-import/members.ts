/**
 * Firebase Auth accounts joined with the `users/{uid}` profiles into the site's members. Pure: the CLI
 * reads both with firebase-admin, this decides what each member becomes and what the owner should know.
 *
 * Rules (docs/firebase-import.md, "Members"):
 * - The uid joins them and stays the site's user id.
 * - The Auth email wins over the profile's: it is what the member types to sign in.
 * - Verification, the disabled flag and the password come from Auth; names, role and the rest from the profile.
 * - An Auth account without a profile becomes a member without a name; a profile without an Auth account
 *   a member without a password (they can set one with "Forgot your password?"); an account without an
 *   email (phone or anonymous sign-in) cannot sign in here and is left out.
 */
import { firebaseStoredHash } from '../../auth/firebase-password';
import type { ImportProblem } from './source';
import type { ImportedUser } from './users';

/** What the importer keeps of a firebase-admin UserRecord. */
export interface AuthAccount {
  uid: string;
  email?: string | undefined;
  emailVerified: boolean;
  disabled: boolean;
  /** UserRecord.metadata.creationTime (an HTTP date) when Firebase gave one. */
  creationTime?: string | undefined;
  /** base64 (standard or URL-safe), as listUsers returns them; absent for accounts without a password. */
  passwordHash?: string | undefined;
  passwordSalt?: string | undefined;
  /** providerData[].providerId: 'password', 'google.com', … */
  providers: string[];
}

export interface ImportedMember extends ImportedUser {
  createdAt: Date;
  emailVerified: boolean;
  disabled: boolean;
  /** `$firebase-scrypt$<salt>$<hash>` for the credential account; undefined: no password on this site yet. */
  password?: string;
}

/** Something the owner should know that does not stop the import. */
export interface ImportNote {
  collection: string;
  id: string;
  field: string;
  message: string;
}

export interface MergedMembers {
  members: ImportedMember[];
  notes: ImportNote[];
  problems: ImportProblem[];
  /** Auth accounts carrying a Firebase password hash (they need the project's hash config). */
  withFirebasePassword: number;
}

/** listUsers may hand out URL-safe base64; the stored form is standard base64 with padding. */
export function standardBase64(value: string): string {
  const s = value.trim().replace(/-/g, '+').replace(/_/g, '/');
  return s + '='.repeat((4 - (s.length % 4)) % 4);
}

function parseCreationTime(value: string | undefined): Date | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : new Date(ms);
}

/** The account column's value, or a problem when Firebase handed over something that is not base64. */
function storedPassword(account: AuthAccount): { password?: string; problem?: string } {
  if (!account.passwordHash) return {};
  if (!account.passwordSalt) return { problem: 'has a password hash but no salt' };
  try {
    return { password: firebaseStoredHash(standardBase64(account.passwordSalt), standardBase64(account.passwordHash)) };
  } catch {
    return { problem: 'password hash or salt is not base64' };
  }
}

export function mergeMembers(profiles: ImportedUser[], accounts: AuthAccount[], now: Date): MergedMembers {
  const notes: ImportNote[] = [];
  const problems: ImportProblem[] = [];
  const members: ImportedMember[] = [];
  const accountOf = new Map(accounts.map((a) => [a.uid, a]));
  const note = (collection: string, id: string, field: string, message: string) => notes.push({ collection, id, field, message });
  let withFirebasePassword = 0;

  const passwordOf = (account: AuthAccount) => {
    const { password, problem } = storedPassword(account);
    if (problem) problems.push({ collection: 'auth', id: account.uid, field: 'passwordHash', message: problem });
    if (password) withFirebasePassword += 1;
    const others = account.providers.filter((p) => p !== 'password');
    if (!password && !problem && account.email && others.length > 0) {
      note('auth', account.uid, '', `signs in with ${others.join(', ')} only: imported without a password (they can set one with "Forgot your password?")`);
    }
    return password;
  };

  for (const profile of profiles) {
    const account = accountOf.get(profile.id);
    if (!account) {
      note('users', profile.id, '', 'no Firebase Auth account: imported without a password (they can set one with "Forgot your password?")');
      members.push({ ...profile, createdAt: profile.createdAt ?? now, emailVerified: false, disabled: false });
      continue;
    }
    const authEmail = account.email?.trim().toLowerCase();
    if (authEmail && authEmail !== profile.email) {
      note('users', profile.id, 'email', `the profile says ${profile.email}, Firebase Auth ${authEmail}: ${authEmail} is kept (members sign in with it)`);
    }
    const password = passwordOf(account);
    members.push({
      ...profile,
      email: authEmail || profile.email,
      createdAt: profile.createdAt ?? parseCreationTime(account.creationTime) ?? now,
      emailVerified: account.emailVerified,
      disabled: account.disabled,
      ...(password ? { password } : {}),
    });
  }

  const profiled = new Set(profiles.map((p) => p.id));
  for (const account of accounts) {
    if (profiled.has(account.uid)) continue;
    const email = account.email?.trim().toLowerCase();
    if (!email) {
      note('auth', account.uid, '', 'no email (phone or anonymous sign-in): not imported, the site signs in by email');
      continue;
    }
    note('auth', account.uid, '', 'no users document: imported as a member without a name');
    const password = passwordOf(account);
    members.push({
      id: account.uid,
      email,
      firstName: '',
      lastName: '',
      role: 'user',
      createdAt: parseCreationTime(account.creationTime) ?? now,
      emailVerified: account.emailVerified,
      disabled: account.disabled,
      ...(password ? { password } : {}),
    });
  }

  // One account per address on this site (users_email_idx); the Auth email may now meet another profile's.
  const owner = new Map<string, string>();
  for (const member of members) {
    const first = owner.get(member.email);
    if (first === undefined) owner.set(member.email, member.id);
    else problems.push({ collection: 'users', id: member.id, field: 'email', message: `"${member.email}" is also the email of users/${first}` });
  }
  return { members, notes, problems, withFirebasePassword };
}
