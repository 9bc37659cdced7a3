/**
 * The AI-answers endpoint an admin may save (decision 018): https only, and with AI answers on, on the one
 * origin the server sends its key to (LLM_API_ORIGIN); without that setting AI answers cannot be switched on.
 */
import { describe, expect, it } from 'vitest';
import { resolveChatSettings } from '../../src/server/modules/chat/settings';
import { chatSettingsSchema, chatSettingsSchemaFor, DEFAULT_CHAT_SETTINGS, llmEndpointProblem } from '../../src/shared/chat';
import { documentFieldErrors } from '../../src/shared/site-documents';

const ORIGIN = 'https://api.example-llm.com';
const withLlm = (endpoint: string, enabled = true) => ({ ...DEFAULT_CHAT_SETTINGS, llm: { enabled, endpoint, model: 'm' } });
const endpointError = (schema: ReturnType<typeof chatSettingsSchemaFor>, value: unknown) => {
  const parsed = schema.safeParse(value);
  return parsed.success ? undefined : documentFieldErrors(parsed.error.issues)['llm.endpoint'];
};

describe('llmEndpointProblem', () => {
  it('accepts an https endpoint on the allowed origin', () => {
    expect(llmEndpointProblem(`${ORIGIN}/v1/chat/completions`, ORIGIN)).toBeUndefined();
    expect(llmEndpointProblem('https://API.example-llm.com:443/v1/chat/completions', ORIGIN)).toBeUndefined();
  });

  it.each([
    ['http://api.example-llm.com/v1/chat/completions', 'must be an https:// address'],
    ['https://api.example-llm.com.evil.example/v1', `must start with ${ORIGIN}/ (LLM_API_ORIGIN), the only address the server sends its API key to`],
    ['https://api.example-llm.com:8443/v1', `must start with ${ORIGIN}/ (LLM_API_ORIGIN), the only address the server sends its API key to`],
    ['https://127.0.0.1/v1', `must start with ${ORIGIN}/ (LLM_API_ORIGIN), the only address the server sends its API key to`],
    ['https://evil.example@api.example-llm.com/v1', 'must not contain a user name or password'],
    ['not a url', 'must be an https:// address'],
  ])('%s: %s', (endpoint, problem) => {
    expect(llmEndpointProblem(endpoint, ORIGIN)).toBe(problem);
  });

  it('says why nothing can be used while LLM_API_ORIGIN is unset', () => {
    expect(llmEndpointProblem(`${ORIGIN}/v1`, undefined)).toMatch(/^cannot be used yet: the server sends its API key to no address until LLM_API_ORIGIN is set/);
  });
});

describe('chatSettingsSchemaFor', () => {
  it('refuses http:// whatever the origin (the stored form says so too)', () => {
    expect(endpointError(chatSettingsSchemaFor(ORIGIN), withLlm('http://api.example-llm.com/v1'))).toBe('Must be an https:// address');
    expect(endpointError(chatSettingsSchemaFor(undefined), withLlm('http://10.0.0.5/v1', false))).toBe('Must be an https:// address');
    expect(chatSettingsSchema.safeParse(withLlm('http://10.0.0.5/v1', false)).success).toBe(false);
  });

  it('with AI answers on: only the allowed origin, and none while it is unset', () => {
    expect(endpointError(chatSettingsSchemaFor(ORIGIN), withLlm(`${ORIGIN}/v1/chat/completions`))).toBeUndefined();
    expect(endpointError(chatSettingsSchemaFor(ORIGIN), withLlm('https://attacker.example/v1'))).toBe(`Must start with ${ORIGIN}/ (LLM_API_ORIGIN), the only address the server sends its API key to`);
    expect(endpointError(chatSettingsSchemaFor(undefined), withLlm(`${ORIGIN}/v1`))).toMatch(/^Cannot be used yet: .*LLM_API_ORIGIN/);
    expect(endpointError(chatSettingsSchemaFor(ORIGIN), withLlm(''))).toBe('Is required when AI answers are on');
  });

  it('with AI answers off: an https endpoint anywhere is kept (the key is not sent)', () => {
    expect(chatSettingsSchemaFor(ORIGIN).safeParse(withLlm('https://elsewhere.example/v1', false)).success).toBe(true);
  });
});

describe('stored settings from before the https rule', () => {
  it('switch AI answers off and keep everything else', () => {
    const stored = { ...DEFAULT_CHAT_SETTINGS, assistantName: 'Ada', llm: { enabled: true, endpoint: 'http://10.0.0.5/v1/chat/completions', model: 'm' } };
    expect(resolveChatSettings(stored)).toEqual({ ...DEFAULT_CHAT_SETTINGS, assistantName: 'Ada' });
  });

  it('still fall back to the defaults when something else is broken', () => {
    expect(resolveChatSettings({ ...DEFAULT_CHAT_SETTINGS, accentColor: 'red', llm: { enabled: true, endpoint: 'http://x', model: 'm' } })).toEqual(DEFAULT_CHAT_SETTINGS);
  });
});
