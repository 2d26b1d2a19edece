// Debian's Chromium, and the flags it always runs with here: in the browser tests and benchmark, and
// when the server prints a report to PDF. Nothing of Chromium's own may reach the network.
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_FLAGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
