/**
 * Enrolling by hand (src/shared/sequence-enrolment.ts): the person's own reasons come before the
 * sequence's, each named in words the person page and the server's refusal share.
 */
import { describe, expect, it } from 'vitest';
import { enrolRefusalMessage, enrolRefusalOf, type EnrolFacts } from '../../src/shared/sequence-enrolment';

const OK: EnrolFacts = { sequenceOn: true, enrolled: false, consented: true, stop: undefined, team: false };

describe('enrolRefusalOf', () => {
  it('offers a sequence that is on to a person who agreed and whom nothing stops', () => {
    expect(enrolRefusalOf(OK)).toBeUndefined();
  });

  it('refuses, in order: already in it, no consent, a stop, the team, the sequence off', () => {
    expect(enrolRefusalOf({ ...OK, enrolled: true, consented: false, sequenceOn: false })).toBe('enrolled');
    expect(enrolRefusalOf({ ...OK, consented: false, stop: 'unsubscribed', sequenceOn: false })).toBe('no-consent');
    expect(enrolRefusalOf({ ...OK, stop: 'unsubscribed', team: true, sequenceOn: false })).toBe('unsubscribed');
    expect(enrolRefusalOf({ ...OK, stop: 'replied' })).toBe('replied');
    expect(enrolRefusalOf({ ...OK, stop: 'booked' })).toBe('booked');
    expect(enrolRefusalOf({ ...OK, stop: 'stage' })).toBe('stage');
    expect(enrolRefusalOf({ ...OK, team: true, sequenceOn: false })).toBe('team');
    expect(enrolRefusalOf({ ...OK, sequenceOn: false })).toBe('off');
  });
});

describe('enrolRefusalMessage', () => {
  it('names what each trigger’s consent is, and each stop', () => {
    expect(enrolRefusalMessage('no-consent', 'chat-lead')).toBe('No consent recorded: they did not tick “Email me follow-ups” on their latest chat contact form.');
    expect(enrolRefusalMessage('no-consent', 'audit-requested')).toMatch(/never requested a free audit/);
    expect(enrolRefusalMessage('no-consent', 'report-sent')).toMatch(/no audit report was sent to them/);
    expect(enrolRefusalMessage('unsubscribed', 'chat-lead')).toBe('No follow-up emails go to them: they unsubscribed.');
    expect(enrolRefusalMessage('stage', 'chat-lead')).toBe('No follow-up emails go to them: they are a client or not a fit.');
    expect(enrolRefusalMessage('enrolled', 'chat-lead')).toBe('They are already in this sequence (a person goes through each sequence once).');
    expect(enrolRefusalMessage('off', 'chat-lead')).toBe('The sequence is off: turn it on in Follow-up sequences first.');
  });
});
