import 'server-only';
import { z } from 'zod';
import { parseExplorerState } from '@/lib/api/routes';
import type { SubjectRef } from '@/lib/k8s/types';
import { explorerExamples, type ExplorerExample } from '@/lib/view/explorer-examples';
import { defaultSimulatorPrefill, simulatorPrefillFor, type SimulatorPrefill } from '@/lib/view/simulation-prefill';
import { resourceRequestOf } from './access';
import { getAnalysis } from './get-report';

// What the explorer page opens with, from the loaded source: its example questions and the write
// the simulator is filled with (a who-can row's "simulate this write", else the source's own example).

/** A who-can row's subject, from the URL (`simKind`, `simName`, `simNamespace`): untrusted input. */
const SimulatedSubjectSchema = z.object({
  simKind: z.enum(['User', 'Group', 'ServiceAccount']),
  simName: z.string().trim().min(1).max(512),
  simNamespace: z.string().trim().max(63).optional().default(''),
});

export interface ExplorerSetup {
  examples: ExplorerExample[];
  prefill: SimulatorPrefill;
}

// Per analysed state: each question the explorer asks renders the page again, and a large cluster's
// claims, slices and nodes need not be walked for each.
const openers = new WeakMap<object, ExplorerSetup>();

export async function getExplorerSetup(params: URLSearchParams): Promise<ExplorerSetup> {
  const { state, report } = await getAnalysis();
  let opener = openers.get(report);
  if (!opener) openers.set(report, (opener = { examples: explorerExamples(state, report), prefill: defaultSimulatorPrefill(state) }));
  const { examples } = opener;
  const subject = SimulatedSubjectSchema.safeParse(Object.fromEntries(params));
  if (subject.success) {
    const { simKind, simName, simNamespace } = subject.data;
    const ref: SubjectRef = simKind === 'ServiceAccount' ? { kind: simKind, name: simName, namespace: simNamespace } : { kind: simKind, name: simName };
    const asked = parseExplorerState(params);
    const request = resourceRequestOf({ ...asked.access });
    const prefill = request && (simKind !== 'ServiceAccount' || simNamespace) ? simulatorPrefillFor(state, request, ref) : undefined;
    if (prefill) return { examples, prefill };
  }
  return opener;
}
