/**
 * The pure parts of running the site (docs/decisions/025): when an island reconnects after a stream's
 * end, and the metrics token check.
 */
import { describe, expect, it } from 'vitest';
import { bearerMatches } from '../../src/server/metrics';
import { reconnectDelayMs } from '../../src/shared/live-streams';

describe('reconnectDelayMs', () => {
  it('reconnects at once after a routine end, and after the server’s hint (spread) after a restart', () => {
    expect(reconnectDelayMs('{"reason":"lifetime"}')).toBe(0);
    expect(reconnectDelayMs('{"reason":"grant-ended"}')).toBe(0);
    expect(reconnectDelayMs('not json')).toBe(0);
    expect(reconnectDelayMs('{"reason":"restart","retryMs":2000}', () => 0)).toBe(2000);
    expect(reconnectDelayMs('{"reason":"restart","retryMs":2000}', () => 0.5)).toBe(3000);
    expect(reconnectDelayMs('{"reason":"restart","retryMs":9999999}', () => 0)).toBe(60_000);
    expect(reconnectDelayMs('{"reason":"restart"}', () => 0.5)).toBe(0);
  });
});

describe('bearerMatches', () => {
  const token = 't'.repeat(40);
  it('accepts only the exact token as a Bearer credential', () => {
    expect(bearerMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`bearer ${token}`, token)).toBe(true);
    for (const header of [undefined, '', token, `Bearer ${token}x`, `Bearer ${token.slice(1)}`, `Basic ${token}`, `Bearer ${token} extra`, 'Bearer ']) {
      expect(bearerMatches(header, token), String(header)).toBe(false);
    }
  });
});
