import { describe, expect, it } from 'vitest';
import { logFormatOf } from './settings';
import { FIRST_ADMIN_COMMAND, startupSummary, type SummaryFacts } from './startup-summary';

const facts: SummaryFacts = {
  appName: 'QUEEN SOLANA',
  siteUrl: 'https://queen.example/',
  appId: 'queen-solana',
  database: 'PGlite (embedded), in ./data/pglite',
  realtime: 'single instance',
  maxSockets: 18_976,
  mail: 'outbox folder ./data/outbox',
  llm: null,
  warnings: [{ message: 'PUBLIC_URL is not set.', action: 'Set PUBLIC_URL.' }],
  admins: 1,
};

describe('the start-up summary at a terminal', () => {
  it('names the site, console and API addresses and the modes, aligned', () => {
    const text = startupSummary(facts);
    expect(text.split('\n').slice(0, 8)).toEqual([
      'QUEEN SOLANA is running',
      '  Site      https://queen.example/',
      '  Console   https://queen.example/_/',
      '  API       https://queen.example/api/apps/queen-solana',
      '  Database  PGlite (embedded), in ./data/pglite',
      '  Realtime  single instance, up to 18,976 sockets',
      '  Mail      outbox folder ./data/outbox',
      '  LLM       none (set LLM_PROVIDER_URL for InvokeLLM and agents)',
    ]);
  });

  it('lists each warning with what to do', () => {
    expect(startupSummary(facts)).toContain(
      'One warning:\n  ! PUBLIC_URL is not set.\n    → Set PUBLIC_URL.\n',
    );
    expect(startupSummary({ ...facts, warnings: [] })).not.toMatch(/warnings?:\n/);
  });

  it('says how to make the first admin only while there is none', () => {
    expect(startupSummary({ ...facts, admins: 0 })).toContain(FIRST_ADMIN_COMMAND);
    expect(startupSummary(facts)).not.toContain(FIRST_ADMIN_COMMAND);
  });
});

describe('LOG_FORMAT', () => {
  it('is pretty at a terminal and JSON lines anywhere else, unless set', () => {
    expect(logFormatOf('auto', true)).toBe('pretty');
    expect(logFormatOf('auto', false)).toBe('json');
    expect(logFormatOf('json', true)).toBe('json');
    expect(logFormatOf('pretty', false)).toBe('pretty');
  });
});
