/** The chat-lead mail neutralises what a visitor typed: no bidi control in the subject, the text or the HTML. */
import { describe, expect, it } from 'vitest';
import { chatLeadEmail } from '../../src/server/modules/chat/mails';

const lead = (name: string, message = '') => ({ conversationId: 'c1', name, email: 'ada@example.com', message, attribution: {} });
const BIDI = /[\u202A-\u202E\u2066-\u2069]/;

describe('chat lead mail', () => {
  it('keeps a name saved before the rule from reordering the subject', () => {
    // "Ada" then RLO: mail clients would show the rest of the subject reversed.
    const mail = chatLeadEmail('owner@example.com', lead('Ada\u202Egnp.exe\u2066x\u2069\u200F'), 'https://site.example/admin/chat-settings/c1', 'Autoflow');
    expect(mail.subject).toBe('New chat lead: Adagnp.exex');
    expect(mail.text).not.toMatch(BIDI);
    expect(mail.html).not.toMatch(BIDI);
  });

  it('puts line breaks of a name on one line and isolates each value in the HTML', () => {
    const mail = chatLeadEmail('owner@example.com', lead('Ada\r\nBcc: x@evil.test', 'שלום\u202E world'), 'https://site.example/x', 'Autoflow');
    expect(mail.subject).toBe('New chat lead: Ada Bcc: x@evil.test');
    expect(mail.text).toContain('Message: שלום world');
    expect(mail.html).toContain('<td dir="auto" style="white-space:pre-wrap">שלום world</td>');
  });

  it('cuts a long subject without splitting a character', () => {
    const subject = chatLeadEmail('o@example.com', lead('😀'.repeat(300)), 'https://site.example/x', 'A').subject;
    expect(Array.from(subject)).toHaveLength(200);
    expect(subject.endsWith('😀')).toBe(true);
  });
});
