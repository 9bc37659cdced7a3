/** Who holds the admin grant (src/shared/admin-rules.ts). */
import { describe, expect, it } from 'vitest';
import { isEnabledAdmin, removesLastEnabledAdmin } from '../../src/shared/admin-rules';

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
