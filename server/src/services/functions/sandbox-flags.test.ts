import { describe, expect, it } from 'vitest';
import { cidrsExcept, deniedNet, sandboxArgs } from './sandbox-flags';

const toInt = (ip: string) => ip.split('.').reduce((total, part) => total * 256 + Number(part), 0);
const covers = (cidr: string, ip: string) => {
  const [base, bits] = cidr.split('/') as [string, string];
  const size = 2 ** (32 - Number(bits));
  return toInt(ip) >= toInt(base) && toInt(ip) < toInt(base) + size;
};

describe('cidrsExcept', () => {
  it('covers all of 127.0.0.0/8 but the API address, with few blocks', () => {
    const blocks = cidrsExcept('127.0.0.0', 8, '127.0.0.44');
    expect(blocks.length).toBeLessThanOrEqual(24);
    for (const ip of [
      '127.0.0.1',
      '127.0.0.43',
      '127.0.0.45',
      '127.0.1.44',
      '127.255.255.255',
      '127.0.0.0',
    ]) {
      expect(
        blocks.some((block) => covers(block, ip)),
        ip,
      ).toBe(true);
    }
    expect(blocks.some((block) => covers(block, '127.0.0.44'))).toBe(false);
  });
});

describe('sandboxArgs', () => {
  const args = sandboxArgs({
    socketPath: '/tmp/s/1.sock',
    importMap: '/tmp/s/import_map.json',
    apiHost: '127.0.0.44',
    deniedPorts: [5432, 6379, 5432],
    memoryMb: 128,
    entry: '/tmp/s/wrappers/x.ts',
  });

  it('grants no read, write, run, ffi or sys beyond the socket, and runs offline from the cache', () => {
    expect(args).toEqual(
      expect.arrayContaining([
        '--cached-only',
        '--no-prompt',
        '--node-modules-dir=none',
        '--allow-read=/tmp/s/1.sock',
        '--allow-write=/tmp/s/1.sock',
        '--v8-flags=--max-old-space-size=128',
      ]),
    );
    expect(args.some((arg) => /^--allow-(run|ffi|sys|all)|^-A$/.test(arg))).toBe(false);
    expect(args.at(-1)).toBe('/tmp/s/wrappers/x.ts');
  });

  it('denies loopback, private ranges and the database ports on the API address', () => {
    const denied = deniedNet('127.0.0.44', [5432, 6379, 5432]);
    expect(denied).toEqual(
      expect.arrayContaining(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '[::1]', 'localhost']),
    );
    expect(denied.filter((entry) => entry.startsWith('127.0.0.44:'))).toEqual([
      '127.0.0.44:5432',
      '127.0.0.44:6379',
    ]);
    expect(args).toContain(`--deny-net=${denied.join(',')}`);
  });
});
