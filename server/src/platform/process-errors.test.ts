import { EventEmitter } from 'node:events';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { logProcessErrors } from './process-errors';

describe('logProcessErrors', () => {
  it('logs an unhandled rejection with its stack and keeps the process running', () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const target = new EventEmitter();
    logProcessErrors(logger, target);
    target.emit('unhandledRejection', new Error('a stray write after close'));
    const [line] = lines.map(
      (text) => JSON.parse(text) as { level: number; msg: string; err: { stack: string } },
    );
    expect(line?.level).toBe(50);
    expect(line?.msg).toContain('unhandled promise rejection');
    expect(line?.err.stack).toContain('a stray write after close');
  });
});
