/** The chat's pure rules (src/shared/chat-rules.ts) with fixed dates: business hours, when to ask for contact details, the inputs. */
import { describe, expect, it } from 'vitest';
import { businessHoursSchema } from '../../src/shared/chat';
import { CONTACT_NAME_NOT_CLEAN, chatContactFieldErrors, chatContactSchema, chatMessageBodySchema, isWithinBusinessHours, shouldAskContact, wallClock } from '../../src/shared/chat-rules';

const hours = (over: Record<string, unknown> = {}) => businessHoursSchema.parse({ enabled: true, ...over });
const BERLIN = 'Europe/Berlin';

describe('isWithinBusinessHours', () => {
  it('is always true when hours are off', () => {
    expect(isWithinBusinessHours(businessHoursSchema.parse({ enabled: false }), BERLIN, new Date('2026-03-28T23:00:00Z'))).toBe(true);
  });

  it('reads the wall clock of the time zone, across a daylight-saving change', () => {
    // Monday 08:30 in Berlin (CET, UTC+1): closed; a week later the same UTC time is 09:30 (CEST, UTC+2): open.
    expect(wallClock('Europe/Berlin', new Date('2026-03-23T07:30:00Z'))).toEqual({ day: 'monday', time: '08:30' });
    expect(isWithinBusinessHours(hours(), BERLIN, new Date('2026-03-23T07:30:00Z'))).toBe(false);
    expect(isWithinBusinessHours(hours(), BERLIN, new Date('2026-03-30T07:30:00Z'))).toBe(true);
  });

  it('opens at "from" and closes at "to"', () => {
    expect(isWithinBusinessHours(hours(), BERLIN, new Date('2026-03-23T08:00:00Z'))).toBe(true); // 09:00
    expect(isWithinBusinessHours(hours(), BERLIN, new Date('2026-03-23T15:59:00Z'))).toBe(true); // 16:59
    expect(isWithinBusinessHours(hours(), BERLIN, new Date('2026-03-23T16:00:00Z'))).toBe(false); // 17:00
  });

  it('uses the weekday of the site’s time zone, not of UTC', () => {
    const tokyo = hours();
    // Tuesday 00:30 UTC is Tuesday 09:30 in Tokyo (open); Saturday is closed by default.
    expect(isWithinBusinessHours(tokyo, 'Asia/Tokyo', new Date('2026-03-24T00:30:00Z'))).toBe(true);
    expect(isWithinBusinessHours(tokyo, 'Asia/Tokyo', new Date('2026-03-28T01:00:00Z'))).toBe(false);
    const saturdays = hours({ days: { saturday: { open: true, from: '10:00', to: '14:00' } } });
    expect(isWithinBusinessHours(saturdays, BERLIN, new Date('2026-03-28T10:00:00Z'))).toBe(true); // Saturday 11:00 Berlin
    expect(isWithinBusinessHours(saturdays, BERLIN, new Date('2026-03-29T10:00:00Z'))).toBe(false); // Sunday
  });
});

describe('shouldAskContact', () => {
  const base = { confident: true, question: 'What is the free audit?', online: true, askContact: 'when-needed' as const, hasContact: false };
  it('asks when there is no good answer, a person is asked for, it is offline, or at the start', () => {
    expect(shouldAskContact(base)).toBe(false);
    expect(shouldAskContact({ ...base, confident: false })).toBe(true);
    expect(shouldAskContact({ ...base, question: 'Can I speak to someone?' })).toBe(true);
    // The rule of src/shared/person-request.ts: a product question about AI agents is not a person asked for.
    expect(shouldAskContact({ ...base, question: 'How do your agents work?' })).toBe(false);
    expect(shouldAskContact({ ...base, online: false })).toBe(true);
    expect(shouldAskContact({ ...base, askContact: 'at-start' })).toBe(true);
  });
  it('never asks again once the contact is known', () => {
    expect(shouldAskContact({ ...base, confident: false, online: false, hasContact: true })).toBe(false);
  });
});

describe('inputs', () => {
  it('trims messages and bounds them to 1–1000 characters', () => {
    expect(chatMessageBodySchema.parse('  hello <b>there</b>  ')).toBe('hello <b>there</b>');
    expect(chatMessageBodySchema.safeParse('   ').success).toBe(false);
    expect(chatMessageBodySchema.safeParse('x'.repeat(1000)).success).toBe(true);
    expect(chatMessageBodySchema.safeParse('x'.repeat(1001)).success).toBe(false);
    expect(chatMessageBodySchema.safeParse('line one\nline two').success).toBe(true);
    expect(chatMessageBodySchema.safeParse('bell\u0007').success).toBe(false);
    expect(chatMessageBodySchema.safeParse(42).success).toBe(false);
  });

  it('checks the contact form by field', () => {
    expect(chatContactSchema.parse({ name: ' Ada ', email: ' Ada@Example.COM ' })).toEqual({ name: 'Ada', email: 'ada@example.com', message: '', followUps: false });
    // "Email me follow-ups": only a real tick is consent.
    expect(chatContactSchema.parse({ name: 'Ada', email: 'ada@example.com', followUps: true }).followUps).toBe(true);
    expect(chatContactSchema.safeParse({ name: 'Ada', email: 'ada@example.com', followUps: 'on' }).success).toBe(false);
    const bad = chatContactSchema.safeParse({ name: 'Ada\nBcc: x', email: 'nope', message: 'x'.repeat(1001) });
    expect(bad.success).toBe(false);
    expect(chatContactFieldErrors(bad.error!)).toEqual({
      name: CONTACT_NAME_NOT_CLEAN,
      email: 'Please enter a valid email address',
      message: 'The message can be at most 1000 characters',
    });
    expect(chatContactFieldErrors(chatContactSchema.safeParse({}).error!)).toMatchObject({ name: 'Please enter your name', email: 'Email is required' });
  });

  it.each([
    ['RLO', 'Ada\u202Egnp.exe'],
    ['LRE', '\u202AAda'],
    ['PDF', 'Ada\u202C'],
    ['LRI', '\u2066Ada'],
    ['FSI', 'Ada \u2068Lovelace'],
    ['PDI', 'Ada\u2069'],
    ['RLM', 'Ada\u200F'],
    ['LRM', '\u200EAda'],
    ['ALM', 'Ada\u061C'],
    ['C1 control', 'Ada\u0085'],
  ])('refuses a name with a text-direction or control character (%s)', (_what, name) => {
    const parsed = chatContactSchema.safeParse({ name, email: 'ada@example.com' });
    expect(parsed.success).toBe(false);
    expect(chatContactFieldErrors(parsed.error!)).toEqual({ name: CONTACT_NAME_NOT_CLEAN });
  });

  it('keeps names in any script, and messages with bidi controls (the inbox neutralises them)', () => {
    expect(chatContactSchema.parse({ name: 'דוד כהן', email: 'd@example.com' }).name).toBe('דוד כהן');
    expect(chatContactSchema.parse({ name: 'محمد', email: 'm@example.com' }).name).toBe('محمد');
    expect(chatMessageBodySchema.parse('שלום \u2067abc\u2069')).toBe('שלום \u2067abc\u2069');
    expect(chatContactSchema.parse({ name: 'Ada', email: 'a@example.com', message: 'line\u202E one\nline two' }).message).toBe('line\u202E one\nline two');
  });
});
