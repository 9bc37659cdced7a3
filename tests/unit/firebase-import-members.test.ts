import { describe, expect, it } from 'vitest';
import { mergeMembers, standardBase64, type AuthAccount } from '../../src/server/modules/firebase-import/members';
import type { ImportedUser } from '../../src/server/modules/firebase-import/users';

const NOW = new Date('2026-01-15T12:00:00Z');
const profile = (id: string, email: string, extra: Partial<ImportedUser> = {}): ImportedUser => ({ id, email, firstName: 'Ada', lastName: 'Lovelace', role: 'user', ...extra });
const account = (uid: string, email: string | undefined, extra: Partial<AuthAccount> = {}): AuthAccount => ({
  uid,
  email,
  emailVerified: true,
  disabled: false,
  creationTime: 'Wed, 02 Jul 2025 10:00:00 GMT',
  passwordHash: 'lSrfV15cpx95_sZS2W9c9Kp6i_LVgQNDNC_qzrCnh1SAyZvqmZqAjTdn3aoItz-VHjoZilo78198JAdRuid5lQ==',
  passwordSalt: '42xEC-ixf3L2lw==',
  providers: ['password'],
  ...extra,
});

describe('standardBase64', () => {
  it('turns the URL-safe base64 listUsers hands out into the standard, padded form', () => {
    expect(standardBase64('42xEC-ixf3L2lw')).toBe('42xEC+ixf3L2lw==');
    expect(standardBase64('a_b-')).toBe('a/b+');
    expect(standardBase64(' Bw== ')).toBe('Bw==');
  });
});

describe('mergeMembers', () => {
  it('takes the creation time from Auth when the profile has none, and the profile\'s otherwise', () => {
    const created = new Date('2024-05-01T08:00:00Z');
    const { members } = mergeMembers([profile('a', 'a@example.com'), profile('b', 'b@example.com', { createdAt: created })], [account('a', 'a@example.com'), account('b', 'b@example.com')], NOW);
    expect(members.map((m) => m.createdAt.toISOString())).toEqual(['2025-07-02T10:00:00.000Z', created.toISOString()]);
  });

  it('an Auth email that another profile also uses is a problem, not a second account', () => {
    const result = mergeMembers([profile('a', 'old-a@example.com'), profile('b', 'shared@example.com')], [account('a', 'Shared@Example.com'), account('b', 'shared@example.com')], NOW);
    expect(result.problems).toEqual([{ collection: 'users', id: 'b', field: 'email', message: '"shared@example.com" is also the email of users/a' }]);
  });

  it('a hash without its salt, or one that is not base64, is a problem of that account', () => {
    const result = mergeMembers([profile('a', 'a@example.com'), profile('b', 'b@example.com')], [account('a', 'a@example.com', { passwordSalt: undefined }), account('b', 'b@example.com', { passwordHash: 'no$such' })], NOW);
    expect(result.problems).toEqual([
      { collection: 'auth', id: 'a', field: 'passwordHash', message: 'has a password hash but no salt' },
      { collection: 'auth', id: 'b', field: 'passwordHash', message: 'password hash or salt is not base64' },
    ]);
    expect(result.withFirebasePassword).toBe(0);
  });

  it('a case-only difference between profile and Auth email is no note', () => {
    const { notes, members } = mergeMembers([profile('a', 'ada@example.com')], [account('a', 'Ada@Example.com')], NOW);
    expect(notes).toEqual([]);
    expect(members[0]).toMatchObject({ email: 'ada@example.com', password: expect.stringMatching(/^\$firebase-scrypt\$42xEC\+ixf3L2lw==\$lSrf/) });
  });
});
