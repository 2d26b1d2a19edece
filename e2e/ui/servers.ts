// E2E_PORT_BASE lets two checkouts run their browser tests at once on one machine.
const base = Number(process.env.E2E_PORT_BASE ?? 3100);

/** The demo source. */
export const DEMO_PORT = base;
export const DEMO_URL = `http://127.0.0.1:${DEMO_PORT}`;
/** The hostile snapshot (e2e/fixtures/hostile): names that are HTML and script payloads. */
export const HOSTILE_PORT = base + 1;
export const HOSTILE_URL = `http://127.0.0.1:${HOSTILE_PORT}`;
/** A real kube-apiserver seeded with the demo, read live (e2e/ui/live-server.ts). */
export const LIVE_PORT = base + 2;
export const LIVE_URL = `http://127.0.0.1:${LIVE_PORT}`;
/** The demo with the audit log the integration test captured from a real kube-apiserver (Activity page). */
export const AUDIT_PORT = base + 3;
export const AUDIT_URL = `http://127.0.0.1:${AUDIT_PORT}`;
export const AUDIT_FIXTURE = 'e2e/fixtures/audit/integration-audit.log';
/** The demo behind `--auth kubernetes`, reviewing tokens on a real kube-apiserver (e2e/ui/auth-server.ts). */
export const AUTH_PORT = base + 9;
export const AUTH_URL = `http://127.0.0.1:${AUTH_PORT}`;
/** Where auth-server.ts writes the token of each test user (relative to the repository). */
export const AUTH_TOKENS_FILE = `test-results/auth-tokens-${AUTH_PORT}.json`;
/**
 * The bench's large synthetic cluster (10,000 nodes, diverse RBAC), generated into test-results/
 * (e2e/ui/large-server.ts). Set E2E_LARGE=0 to leave it out of a local run that does not need it.
 */
export const LARGE_PORT = base + 4;
export const LARGE_URL = `http://127.0.0.1:${LARGE_PORT}`;
/** Answers once the snapshot is loaded and analysed: the server counts as ready then. */
export const LARGE_READY_PATH = '/api/v1/nodes?q=node-1&limit=1';
/** A --snapshot file that never reads (truncated JSON): every page must still render, with the banner. */
export const BROKEN_PORT = base + 8;
export const BROKEN_URL = `http://127.0.0.1:${BROKEN_PORT}`;
