// Reading a secret value for the CLI: from stdin when it is piped (`printf %s "$KEY" | npm run cli -- …`),
// else from a prompt that echoes nothing. Never from an argument, which shell history and `ps` would keep.

/** MAX_INPUT_BYTES bounds what is read from stdin (a secret is small; more is a mistake). */
const MAX_INPUT_BYTES = 64 * 1024;

async function readPiped(stdin: NodeJS.ReadStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_INPUT_BYTES) throw new Error(`The value on stdin is longer than ${MAX_INPUT_BYTES} bytes`);
    chunks.push(buffer);
  }
  // One final line break (from echo or a heredoc) is not part of the value.
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

function readHidden(stdin: NodeJS.ReadStream, prompt: string): Promise<string> {
  process.stderr.write(prompt);
  return new Promise((resolve, reject) => {
    let value = '';
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    const finish = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (text: string) => {
      for (const char of text) {
        if (char === '\r' || char === '\n') return finish();
        if (char === '\u0003') return finish(new Error('Cancelled'));
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else if (value.length < MAX_INPUT_BYTES) value += char;
      }
    };
    stdin.on('data', onData);
  });
}

/** readSecretValue returns the value piped on stdin, or typed at a hidden prompt when stdin is a terminal. */
export function readSecretValue(name: string, stdin: NodeJS.ReadStream = process.stdin): Promise<string> {
  return stdin.isTTY ? readHidden(stdin, `Value of ${name} (not shown): `) : readPiped(stdin);
}
