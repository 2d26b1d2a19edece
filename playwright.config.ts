import { defineConfig } from '@playwright/test';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/ui/chromium';
import {
  AUDIT_FIXTURE,
  AUDIT_PORT,
  AUDIT_URL,
  AUTH_PORT,
  AUTH_URL,
  BROKEN_PORT,
  BROKEN_URL,
  DEMO_PORT,
  DEMO_URL,
  HOSTILE_PORT,
  HOSTILE_URL,
  LARGE_PORT,
  LARGE_READY_PATH,
  LARGE_URL,
  LIVE_PORT,
  LIVE_URL,
} from './e2e/ui/servers';

// Browser tests of the dashboard against real `next start` servers (built beforehand: `npm run
// test:e2e` or scripts/test-all.sh build first). Debian's Chromium only: never `playwright install`.

// A fresh store per run, never the user's own (snapshot history, approvals).
// The dashboard servers run as `dra-posture serve` runs next start: with bin/serve-preload.mjs (the
// accept backlog and request pacing), so the browser tests exercise it.
const SERVE_PRELOAD = `--import=${pathToFileURL(resolve('bin/serve-preload.mjs')).href}`;
const serverEnv = {
  NEXT_TELEMETRY_DISABLED: '1',
  DRA_POSTURE_STORE: `test-results/store-${DEMO_PORT}-${Date.now()}.sqlite`,
  NODE_OPTIONS: [process.env.NODE_OPTIONS, SERVE_PRELOAD].filter(Boolean).join(' '),
};

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results/artifacts',
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    baseURL: DEMO_URL,
    viewport: { width: 1440, height: 900 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  webServer: [
    {
      command: `npx next start -H 127.0.0.1 -p ${DEMO_PORT}`,
      url: `${DEMO_URL}/api/healthz`,
      reuseExistingServer: !process.env.CI,
      timeout: 120_000,
      env: { ...serverEnv, DRA_POSTURE_SNAPSHOT: '', DRA_POSTURE_SOURCE: 'demo' },
    },
    {
      command: `npx next start -H 127.0.0.1 -p ${HOSTILE_PORT}`,
      url: `${HOSTILE_URL}/api/healthz`,
      reuseExistingServer: !process.env.CI,
      timeout: 120_000,
      env: { ...serverEnv, DRA_POSTURE_SNAPSHOT: 'e2e/fixtures/hostile' },
    },
    {
      command: `npx next start -H 127.0.0.1 -p ${AUDIT_PORT}`,
      url: `${AUDIT_URL}/api/healthz`,
      reuseExistingServer: !process.env.CI,
      timeout: 120_000,
      env: {
        ...serverEnv,
        DRA_POSTURE_STORE: `test-results/store-${AUDIT_PORT}-${Date.now()}.sqlite`,
        DRA_POSTURE_SNAPSHOT: '',
        DRA_POSTURE_SOURCE: 'demo',
        DRA_POSTURE_AUDIT: AUDIT_FIXTURE,
      },
    },
    {
      command: `npx next start -H 127.0.0.1 -p ${BROKEN_PORT}`,
      url: `${BROKEN_URL}/api/healthz`,
      reuseExistingServer: !process.env.CI,
      timeout: 120_000,
      env: {
        ...serverEnv,
        DRA_POSTURE_STORE: `test-results/store-${BROKEN_PORT}-${Date.now()}.sqlite`,
        DRA_POSTURE_SNAPSHOT: 'e2e/fixtures/broken/truncated.json',
      },
    },
    {
      // The demo behind sign-in: a real kube-apiserver reviews the test users' tokens and access.
      command: `node --import tsx e2e/ui/auth-server.ts ${AUTH_PORT}`,
      url: `${AUTH_URL}/api/healthz`,
      reuseExistingServer: !process.env.CI,
      timeout: 300_000,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
      env: { ...serverEnv, DRA_POSTURE_STORE: `test-results/store-${AUTH_PORT}-${Date.now()}.sqlite` },
    },
    {
      // A real kube-apiserver seeded with the demo, read live; the script stops it with the server.
      command: `node --import tsx e2e/ui/live-server.ts ${LIVE_PORT}`,
      url: `${LIVE_URL}/api/healthz`,
      reuseExistingServer: !process.env.CI,
      timeout: 600_000,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
      env: serverEnv,
    },
    // The bench's large cluster (10,000 nodes): generated into test-results/ once (about a minute),
    // then loaded and analysed before it counts as ready (e2e/ui/large-server.ts).
    ...(process.env.E2E_LARGE === '0'
      ? []
      : [
          {
            command: `node --import tsx e2e/ui/large-server.ts ${LARGE_PORT}`,
            url: `${LARGE_URL}${LARGE_READY_PATH}`,
            reuseExistingServer: !process.env.CI,
            timeout: 600_000,
            gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 20_000 },
            env: { ...serverEnv, DRA_POSTURE_STORE: `test-results/store-${LARGE_PORT}-${Date.now()}.sqlite` },
          },
        ]),
  ],
});
