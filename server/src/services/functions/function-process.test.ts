import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { limitedCommand } from './function-process';

const run = promisify(execFile);

describe('limitedCommand', () => {
  it.skipIf(process.platform === 'win32')(
    'runs the command itself with its descriptor and data limits set, soft and hard',
    async () => {
      const probe = 'echo $(ulimit -n) $(ulimit -Hn) $(ulimit -d) $(ulimit -Hd)';
      const { command, args } = limitedCommand('/bin/sh', ['-c', probe], { openFiles: 77, dataMb: 900 });
      const { stdout } = await run(command, args);
      expect(stdout.trim()).toBe(`77 77 ${900 * 1024} ${900 * 1024}`);
      // The environment is the one given: the shell adds nothing (it exports PWD of its own).
      const env = limitedCommand('/usr/bin/env', [], { openFiles: 77, dataMb: 900 });
      expect((await run(env.command, env.args, { env: { ONLY: '1' } })).stdout.trim()).toBe('ONLY=1');
    },
  );

  it('leaves a command alone without limits', () => {
    expect(limitedCommand('deno', ['run'], undefined)).toEqual({ command: 'deno', args: ['run'] });
  });
});
