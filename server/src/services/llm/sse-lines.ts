// Server-sent events as an OpenAI-compatible provider streams them (`data: {chunk}` events, `data: [DONE]`
// last), read incrementally from the bytes as they arrive: UTF-8 split across chunks, `\n`, `\r\n` or `\r`
// line ends, comments, multi-line data. What one event may hold is bounded, so a provider that never ends a
// line cannot make the reader hold more than that.
import { UpstreamError } from '../../lib/errors';

/** MAX_SSE_EVENT_CHARS bounds one event's data (a chat chunk is a few hundred characters). */
export const MAX_SSE_EVENT_CHARS = 1_000_000;

/** SseReader turns a stream's bytes into its events' data, one string per event. */
export interface SseReader {
  /** push takes the next bytes and returns the data of each event they complete. */
  push(chunk: Uint8Array | string): string[];
  /** end returns the data of an event the stream ended without its blank line. */
  end(): string[];
}

/** createSseReader reads one stream; an event over maxEventChars throws an UpstreamError. */
export function createSseReader(maxEventChars = MAX_SSE_EVENT_CHARS): SseReader {
  const decoder = new TextDecoder();
  let pending = '';
  let data: string[] = [];
  let dataChars = 0;
  // A `\r` ending the last chunk may be the first half of a `\r\n`.
  let skipLineFeed = false;

  const tooLarge = () =>
    new UpstreamError(`An event of the LLM provider's stream is larger than ${maxEventChars} characters`);

  function line(text: string, events: string[]): void {
    if (text === '') {
      if (data.length > 0) events.push(data.join('\n'));
      data = [];
      dataChars = 0;
      return;
    }
    if (text.startsWith(':')) return; // a comment (keep-alive)
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    if (field !== 'data') return; // event, id, retry: chat streams do not use them
    const value = colon < 0 ? '' : text.slice(colon + (text[colon + 1] === ' ' ? 2 : 1));
    dataChars += value.length + 1;
    if (dataChars > maxEventChars) throw tooLarge();
    data.push(value);
  }

  function lines(text: string, events: string[]): void {
    let start = 0;
    if (skipLineFeed && text.startsWith('\n')) start = 1;
    skipLineFeed = false;
    for (let index = start; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      if (code !== 0x0a && code !== 0x0d) continue;
      line(pending + text.slice(start, index), events);
      pending = '';
      if (code === 0x0d) {
        if (index + 1 === text.length) skipLineFeed = true;
        else if (text.charCodeAt(index + 1) === 0x0a) index += 1;
      }
      start = index + 1;
    }
    pending += text.slice(start);
    if (pending.length + dataChars > maxEventChars) throw tooLarge();
  }

  return {
    push(chunk) {
      const events: string[] = [];
      lines(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }), events);
      return events;
    },
    end() {
      const events: string[] = [];
      lines(decoder.decode(), events);
      if (pending !== '') line(pending, events);
      pending = '';
      line('', events);
      return events;
    },
  };
}
