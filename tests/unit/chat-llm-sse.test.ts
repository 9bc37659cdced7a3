import { describe, expect, it } from 'vitest';
import { contentOfEvent, MalformedStreamError, streamedContent } from '../../src/server/modules/chat-llm/sse';

async function collect(parts: string[]): Promise<string[]> {
  const encoder = new TextEncoder();
  async function* body() {
    for (const p of parts) yield encoder.encode(p);
  }
  const out: string[] = [];
  for await (const piece of streamedContent(body())) out.push(piece);
  return out;
}

const ev = (content: string) => `data: ${JSON.stringify({ choices: [{ delta: { content } }] })}\n\n`;

describe('chat-completions stream', () => {
  it('yields the content of each event until [DONE], across split packets and CRLF', async () => {
    const raw = `: keep-alive\n\n${ev('Hello')}${ev(', world').replace(/\n/g, '\r\n')}data: [DONE]\n\n${ev('ignored')}`;
    expect(await collect([raw.slice(0, 7), raw.slice(7, 40), raw.slice(40)])).toEqual(['Hello', ', world']);
  });
  it('skips events without content (role, finish)', () => {
    expect(contentOfEvent(JSON.stringify({ choices: [{ delta: { role: 'assistant' } }] }))).toEqual([]);
    expect(contentOfEvent(JSON.stringify({ choices: [{ delta: {}, finish_reason: 'stop' }] }))).toEqual([]);
  });
  it('rejects what is not the expected shape', async () => {
    expect(() => contentOfEvent('{oops')).toThrow(MalformedStreamError);
    expect(() => contentOfEvent('{"error":"x"}')).toThrow(MalformedStreamError);
    await expect(collect([ev('cut short')])).rejects.toThrow(MalformedStreamError);
  });
  it('accepts [DONE] without a final blank line', async () => {
    expect(await collect([`${ev('a')}data: [DONE]`])).toEqual(['a']);
  });
});
