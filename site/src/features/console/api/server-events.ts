// Server-sent events read through fetch (the console's bearer token rides in its Authorization header,
// which EventSource cannot send).

/** readServerEvents hands each event's data to onData until the stream ends (or its request is aborted). */
export async function readServerEvents(response: Response, onData: (data: string) => void): Promise<void> {
  if (!response.body) throw new Error('The server sent no stream');
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      if (data) onData(data);
    }
  }
}
