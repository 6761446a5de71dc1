// The Deno permissions a function runs with (each tried from inside a function in
// e2e/tests/api/functions-sandbox.spec.ts; what they leave open: docs/functions.md, "The sandbox"): no
// read, write, run, ffi or sys; every environment variable (the child's environment holds only the app's
// secrets; the SDK needs `Object.keys(process.env)`);
// the public internet, but neither loopback, private ranges nor the database's ports, except the one
// loopback address where this server's API listens for functions. Deny wins over allow in Deno, so the
// loopback range is denied as the CIDR blocks around that address.

/** PRIVATE_RANGES are addresses a function may never reach (IPv4 private, link-local, CGNAT; IPv6 local). */
const PRIVATE_RANGES = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '[::1]',
  '[::]',
  'localhost',
];

const toInt = (ip: string) => ip.split('.').reduce((total, part) => total * 256 + Number(part), 0);
const toIp = (value: number) => [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');

/** cidrsExcept covers base/bits with CIDR blocks, leaving out the single address `except`. */
export function cidrsExcept(base: string, bits: number, except: string): string[] {
  const blocks: string[] = [];
  const hole = toInt(except);
  const split = (start: number, size: number): void => {
    if (hole < start || hole >= start + size) {
      blocks.push(`${toIp(start)}/${32 - Math.log2(size)}`);
      return;
    }
    if (size === 1) return;
    split(start, size / 2);
    split(start + size / 2, size / 2);
  };
  split(toInt(base), 2 ** (32 - bits));
  return blocks;
}

/** SandboxInput is what the flags depend on. */
export interface SandboxInput {
  socketPath: string;
  importMap: string;
  /** apiHost is the loopback address of this server's API for functions (FUNCTIONS_API_HOST). */
  apiHost: string;
  /** deniedPorts are ports closed even on apiHost: the database's and Redis's. */
  deniedPorts: number[];
  memoryMb: number;
  entry: string;
}

/** deniedNet lists every `--deny-net` entry: private ranges, loopback but apiHost, and apiHost's denied ports. */
export function deniedNet(apiHost: string, deniedPorts: number[]): string[] {
  return [
    ...cidrsExcept('127.0.0.0', 8, apiHost),
    ...PRIVATE_RANGES,
    ...[...new Set(deniedPorts)].map((port) => `${apiHost}:${port}`),
  ];
}

/** sandboxArgs is the `deno run` argument list of one function process. */
export function sandboxArgs(input: SandboxInput): string[] {
  return [
    'run',
    '--cached-only',
    '--no-prompt',
    '--no-config',
    '--node-modules-dir=none',
    `--import-map=${input.importMap}`,
    '--allow-env',
    `--allow-read=${input.socketPath}`,
    `--allow-write=${input.socketPath}`,
    '--allow-net',
    `--deny-net=${deniedNet(input.apiHost, input.deniedPorts).join(',')}`,
    `--v8-flags=--max-old-space-size=${input.memoryMb}`,
    input.entry,
  ];
}

/** cacheArgs is the `deno cache` argument list that fetches an entry's `npm:` packages once. */
export function cacheArgs(importMap: string, entry: string): string[] {
  return ['cache', '--no-config', '--node-modules-dir=none', `--import-map=${importMap}`, entry];
}
