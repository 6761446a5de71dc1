/** CHROMIUM is Debian's Chromium: tests and benchmarks never download a browser. */
export const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/**
 * CHROMIUM_FLAGS make Chromium run as root and stay silent on a closed network (no background
 * connections, updates, sync or QUIC).
 */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
