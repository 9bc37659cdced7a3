import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/server/config';

describe('LLM_API_KEY', () => {
  it('is optional, and empty means unset', () => {
    expect(parseConfig({}).LLM_API_KEY).toBeUndefined();
    expect(parseConfig({ LLM_API_KEY: '' }).LLM_API_KEY).toBeUndefined();
    expect(parseConfig({ LLM_API_KEY: '  sk-abc_123  ' }).LLM_API_KEY).toBe('sk-abc_123');
  });

  it('refuses a value that cannot go into a header, without repeating it', () => {
    const attempt = () => parseConfig({ LLM_API_KEY: 'sk secret\nvalue' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/LLM_API_KEY: must be printable characters without spaces/);
    try {
      attempt();
    } catch (err) {
      expect(String(err)).not.toContain('secret');
    }
  });
});

describe('LLM_API_ORIGIN', () => {
  it('is optional, and empty means unset', () => {
    expect(parseConfig({}).LLM_API_ORIGIN).toBeUndefined();
    expect(parseConfig({ LLM_API_ORIGIN: ' ' }).LLM_API_ORIGIN).toBeUndefined();
  });

  it('is an https origin, written the way browsers compare them', () => {
    expect(parseConfig({ LLM_API_ORIGIN: 'https://api.openai.com' }).LLM_API_ORIGIN).toBe('https://api.openai.com');
    expect(parseConfig({ LLM_API_ORIGIN: ' https://API.OpenAI.com:443/ ' }).LLM_API_ORIGIN).toBe('https://api.openai.com');
    expect(parseConfig({ LLM_API_ORIGIN: 'https://llm.internal.example:8443' }).LLM_API_ORIGIN).toBe('https://llm.internal.example:8443');
  });

  it.each(['http://api.openai.com', 'https://api.openai.com/v1', 'https://api.openai.com/?x=1', 'https://key@api.openai.com', 'api.openai.com', 'ftp://api.openai.com'])(
    'refuses %s',
    (value) => {
      expect(() => parseConfig({ LLM_API_ORIGIN: value })).toThrow(/LLM_API_ORIGIN: must be an https origin such as https:\/\/api\.openai\.com \(no path, user name or password\)/);
    },
  );
});
