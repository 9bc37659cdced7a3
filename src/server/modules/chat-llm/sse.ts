/**
 * Reads an OpenAI-compatible chat-completions stream: server-sent events whose `data:` lines carry
 * `{"choices":[{"delta":{"content":"…"}}]}`, ended by `data: [DONE]`.
 */
export class MalformedStreamError extends Error {}

/** The text pieces of one event's data; [] for events without content (role announcements, finish). */
export function contentOfEvent(data: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw new MalformedStreamError('an event is not JSON');
  }
  const choices = (parsed as { choices?: unknown } | null)?.choices;
  if (!Array.isArray(choices)) throw new MalformedStreamError('an event has no choices');
  const out: string[] = [];
  for (const choice of choices) {
    const content = (choice as { delta?: { content?: unknown } } | null)?.delta?.content;
    if (typeof content === 'string' && content !== '') out.push(content);
  }
  return out;
}

/**
 * Yields the content pieces of a byte stream of server-sent events until `[DONE]`. A stream that ends
 * without `[DONE]`, or carries something other than the expected JSON, is malformed.
 */
export async function* streamedContent(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  for await (const bytes of body) {
    buffer += decoder.decode(bytes, { stream: true });
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).replace(/\r$/, '');
      buffer = buffer.slice(newline + 1);
      if (line === '') {
        // A blank line ends an event.
        if (data.length > 0) {
          const payload = data.join('\n');
          data = [];
          if (payload.trim() === '[DONE]') return;
          yield* contentOfEvent(payload);
        }
      } else if (line.startsWith('data:')) {
        data.push(line.slice(5).replace(/^ /, ''));
      }
      // Other fields (event:, id:, retry:) and comments (":") carry nothing we use.
    }
  }
  const rest = [...data, ...(buffer.startsWith('data:') ? [buffer.slice(5).trim()] : [])].join('\n').trim();
  if (rest === '[DONE]') return;
  throw new MalformedStreamError('the stream ended before [DONE]');
}
