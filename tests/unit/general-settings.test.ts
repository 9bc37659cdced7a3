/**
 * The general settings document (src/shared/general-settings.ts, decision 055): what the editor and the
 * server accept, with the messages shown beside the fields, and how a stored document is read.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_GENERAL_SETTINGS, generalSettingsSchema, resolveGeneralSettings } from '../../src/shared/general-settings';
import { documentFieldErrors } from '../../src/shared/site-documents';

const errorsOf = (input: unknown) => {
  const parsed = generalSettingsSchema.safeParse(input);
  return parsed.success ? {} : documentFieldErrors(parsed.error.issues);
};

describe('the general settings', () => {
  it('start with no time zone (UTC meanwhile) and replies to the contact email', () => {
    expect(DEFAULT_GENERAL_SETTINGS).toEqual({ timeZone: null, replyTo: '' });
    expect(generalSettingsSchema.parse({})).toEqual(DEFAULT_GENERAL_SETTINGS);
  });

  it('take an IANA zone, or none, and say which zone is meant by a made-up one', () => {
    expect(generalSettingsSchema.parse({ timeZone: 'Asia/Kathmandu' }).timeZone).toBe('Asia/Kathmandu');
    expect(generalSettingsSchema.parse({ timeZone: 'UTC' }).timeZone).toBe('UTC');
    expect(generalSettingsSchema.parse({ timeZone: null }).timeZone).toBeNull();
    expect(errorsOf({ timeZone: 'Mars/Olympus_Mons' })).toEqual({ timeZone: 'Must be a time zone like Europe/London' });
    expect(errorsOf({ timeZone: `Europe/${'x'.repeat(70)}` })).toHaveProperty('timeZone');
    expect(errorsOf({ timeZone: 42 })).toHaveProperty('timeZone');
  });

  it('take one email address for replies, trimmed, or none', () => {
    expect(generalSettingsSchema.parse({ replyTo: '  team@clinic.example ' }).replyTo).toBe('team@clinic.example');
    expect(generalSettingsSchema.parse({ replyTo: '   ' }).replyTo).toBe('');
    for (const bad of ['team', 'Team <team@clinic.example>', 'a@b.example, c@d.example', 'team@clinic.example\r\nBcc: x@y.example']) {
      expect(errorsOf({ replyTo: bad }), bad).toEqual({ replyTo: 'Must be an email address such as team@example.com' });
    }
    expect(errorsOf({ replyTo: `${'a'.repeat(250)}@b.example` })).toEqual({ replyTo: 'Must be at most 254 characters' });
  });

  it('are read field by field: what the rules no longer take falls back alone', () => {
    expect(resolveGeneralSettings(undefined)).toEqual(DEFAULT_GENERAL_SETTINGS);
    expect(resolveGeneralSettings('nonsense')).toEqual(DEFAULT_GENERAL_SETTINGS);
    expect(resolveGeneralSettings({ timeZone: 'Gone/Zone', replyTo: 'team@clinic.example' })).toEqual({ timeZone: null, replyTo: 'team@clinic.example' });
    expect(resolveGeneralSettings({ timeZone: 'Europe/Berlin', replyTo: 'not an address' })).toEqual({ timeZone: 'Europe/Berlin', replyTo: '' });
  });
});
