import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/server/config';
import { GENERIC_SECRET } from '../support/booking-webhooks';

describe('the booking webhooks’ secrets', () => {
  it('are optional; empty means unset (that scheduler’s deliveries are refused)', () => {
    const c = parseConfig({ BOOKING_WEBHOOK_SECRET_CALCOM: '', BOOKING_WEBHOOK_SECRET_CALENDLY: ' ', BOOKING_WEBHOOK_SECRET: '' });
    expect([c.BOOKING_WEBHOOK_SECRET_CALCOM, c.BOOKING_WEBHOOK_SECRET_CALENDLY, c.BOOKING_WEBHOOK_SECRET]).toEqual([undefined, undefined, undefined]);
  });

  it('take a long enough Cal.com or Calendly secret, and a Standard Webhooks secret with or without whsec_', () => {
    const c = parseConfig({ BOOKING_WEBHOOK_SECRET_CALCOM: 'a'.repeat(16), BOOKING_WEBHOOK_SECRET_CALENDLY: 'b'.repeat(64), BOOKING_WEBHOOK_SECRET: GENERIC_SECRET });
    expect(c.BOOKING_WEBHOOK_SECRET_CALCOM).toBe('a'.repeat(16));
    expect(c.BOOKING_WEBHOOK_SECRET).toBe(GENERIC_SECRET);
    expect(parseConfig({ BOOKING_WEBHOOK_SECRET: GENERIC_SECRET.slice(6) }).BOOKING_WEBHOOK_SECRET).toBe(GENERIC_SECRET.slice(6));
  });

  it.each([
    [{ BOOKING_WEBHOOK_SECRET_CALCOM: 'short' }, /BOOKING_WEBHOOK_SECRET_CALCOM: must be at least 16 characters/],
    [{ BOOKING_WEBHOOK_SECRET_CALENDLY: 'x'.repeat(15) }, /BOOKING_WEBHOOK_SECRET_CALENDLY: must be at least 16 characters/],
    [{ BOOKING_WEBHOOK_SECRET: 'whsec_not base64!' }, /BOOKING_WEBHOOK_SECRET: must be whsec_ followed by the base64 of 24 to 64 random bytes/],
    [{ BOOKING_WEBHOOK_SECRET: `whsec_${Buffer.alloc(8).toString('base64')}` }, /BOOKING_WEBHOOK_SECRET: must be whsec_/],
  ])('refuses %o at start-up', (env, message) => {
    expect(() => parseConfig(env)).toThrow(message);
  });
});
