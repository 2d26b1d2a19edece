/** The demo source. */
export const DEMO_URL = 'http://127.0.0.1:3100';
/** The hostile snapshot (e2e/fixtures/hostile): names that are HTML and script payloads. */
export const HOSTILE_URL = 'http://127.0.0.1:3101';
