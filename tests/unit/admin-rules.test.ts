/** Who holds the admin grant and who may get it by themselves (src/shared/admin-rules.ts), and ADMIN_EMAIL's parsing. */
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/server/config';
import { becomesFirstAdmin, isDesignatedAdminEmail, isEnabledAdmin, removesLastEnabledAdmin } from '../../src/shared/admin-rules';

const admin = { role: 'admin', emailVerified: true, banned: false };

describe('the admin grant', () => {
  it('is held by a verified admin who is not disabled', () => {
    expect(isEnabledAdmin(admin)).toBe(true);
    expect(isEnabledAdmin({ ...admin, banned: true })).toBe(false);
    expect(isEnabledAdmin({ ...admin, emailVerified: false })).toBe(false);
    expect(isEnabledAdmin({ ...admin, role: 'user' })).toBe(false);
  });

  it('is not removed from its last enabled holder; a disabled admin is no holder', () => {
    expect(removesLastEnabledAdmin(admin, 0)).toBe(true);
    expect(removesLastEnabledAdmin(admin, 1)).toBe(false);
    expect(removesLastEnabledAdmin({ ...admin, banned: true }, 0)).toBe(false);
    expect(removesLastEnabledAdmin({ ...admin, role: 'user' }, 0)).toBe(false);
  });
});

describe('the first-account rule', () => {
  it('without ADMIN_EMAIL: the only account', () => {
    expect(becomesFirstAdmin({ email: 'a@example.com', adminEmail: undefined, accounts: 1, enabledAdmins: 0 })).toBe(true);
    expect(becomesFirstAdmin({ email: 'a@example.com', adminEmail: undefined, accounts: 2, enabledAdmins: 0 })).toBe(false);
  });

  it('with ADMIN_EMAIL: that address (any case) while no enabled admin exists, however many accounts', () => {
    const rule = (email: string, accounts: number, enabledAdmins: number) => becomesFirstAdmin({ email, adminEmail: 'owner@example.com', accounts, enabledAdmins });
    expect(rule('stranger@example.com', 1, 0)).toBe(false);
    expect(rule('Owner@Example.COM', 5, 0)).toBe(true);
    expect(rule('owner@example.com', 5, 1)).toBe(false);
    expect(isDesignatedAdminEmail('anyone@example.com', undefined)).toBe(true);
    expect(isDesignatedAdminEmail(' OWNER@example.com', 'owner@example.com')).toBe(true);
  });
});

describe('ADMIN_EMAIL', () => {
  it('is optional, trimmed and lower-cased; anything but an address stops the start', () => {
    expect(parseConfig({}).ADMIN_EMAIL).toBeUndefined();
    expect(parseConfig({ ADMIN_EMAIL: '' }).ADMIN_EMAIL).toBeUndefined();
    expect(parseConfig({ ADMIN_EMAIL: '  Owner@Example.COM ' }).ADMIN_EMAIL).toBe('owner@example.com');
    expect(() => parseConfig({ ADMIN_EMAIL: 'owner at example.com' })).toThrow(ConfigError);
    expect(() => parseConfig({ ADMIN_EMAIL: 'owner at example.com' })).toThrow('ADMIN_EMAIL: must be an email address such as owner@example.com');
  });
});
