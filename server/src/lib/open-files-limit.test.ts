import { describe, expect, it } from 'vitest';
import { readOpenFilesLimit, SOCKET_CAP_WITHOUT_LIMIT, socketCapFor } from './open-files-limit';

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max processes             unlimited            unlimited            processes
Max open files            20000                40000                files
Max locked memory         8388608              8388608              bytes
`;

describe('readOpenFilesLimit', () => {
  it('reads the soft limit, not the hard one', () => {
    expect(readOpenFilesLimit(LIMITS)).toBe(20_000);
  });

  it('says null when the line is missing or unlimited', () => {
    expect(readOpenFilesLimit('Limit Soft Hard Units\n')).toBeNull();
    expect(readOpenFilesLimit(LIMITS.replace('20000 ', 'unlimited'))).toBeNull();
  });

  it("reads this process's own limit on Linux", () => {
    if (process.platform !== 'linux') return;
    expect(readOpenFilesLimit()).toBeGreaterThan(0);
  });
});

describe('socketCapFor', () => {
  it('keeps a quarter of a small limit, and at most 1,024 files of a large one, for everything else', () => {
    expect(socketCapFor(1_024)).toBe(768);
    expect(socketCapFor(20_000)).toBe(18_976);
    expect(socketCapFor(1_048_576)).toBe(1_047_552);
  });

  it('falls back to a fixed cap when the limit is unknown', () => {
    expect(socketCapFor(null)).toBe(SOCKET_CAP_WITHOUT_LIMIT);
  });
});
