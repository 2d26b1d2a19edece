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
