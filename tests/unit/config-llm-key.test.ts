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
