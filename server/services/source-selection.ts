import 'server-only';

// A source chosen in the browser (Sources page): the demo, or a context of the server's own
// kubeconfig, by name only. It overrides the configured source until reset. On globalThis: Next
// bundles route handlers and pages separately.
export type SourceSelection = { kind: 'demo' } | { kind: 'context'; name: string };

const KEY = Symbol.for('dra-posture.source-selection');
const store = globalThis as unknown as Record<symbol, SourceSelection | undefined>;

export function getSourceSelection(): SourceSelection | undefined {
  return store[KEY];
}

export function setSourceSelection(selection: SourceSelection | undefined): void {
  store[KEY] = selection;
}
