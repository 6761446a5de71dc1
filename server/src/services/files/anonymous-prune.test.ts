import { describe, expect, it } from 'vitest';
import type { FileSummary } from '../../store/files-store';
import { pruneAnonymousUploads } from './anonymous-prune';

const file = (key: string): FileSummary => ({ key, app_id: 'app', size: 10, filename: `${key}.txt` });

describe('pruneAnonymousUploads', () => {
  it('removes expired anonymous uploads no record names (row first, then bytes), and keeps the rest', async () => {
    const calls: string[] = [];
    let askedFor: [number, number] | null = null;
    const removed = await pruneAnonymousUploads({
      retentionSeconds: 86_400,
      files: {
        anonymousOlderThan: async (seconds, limit) => {
          askedFor = [seconds, limit];
          return [file('a'), file('b')];
        },
        isReferenced: async (_app, key) => key === 'b',
        delete: async (key) => void calls.push(`row ${key}`),
      },
      storage: { delete: async (key) => void calls.push(`bytes ${key}`) },
    });
    expect(askedFor).toEqual([86_400, 200]);
    expect(removed).toBe(1);
    expect(calls).toEqual(['row a', 'bytes a']);
  });
});
