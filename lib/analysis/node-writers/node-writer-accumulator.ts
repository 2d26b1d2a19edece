import type { AnalysisContext } from '@/lib/analysis/context-types';

import type { SubjectRef } from '@/lib/k8s/types';
import type { NodeStatusWriter, StatusWriterMode } from '@/lib/analysis/types';

import { normaliseEvidence } from '@/lib/analysis/evidence';
import { compareSubjects, refKey } from '@/lib/k8s/refs';

// Collects node status writers: those that reach every node once, the rest per node (a subject and
// mode that turns out to reach every node is dropped from the nodes it was first seen on).

const MODE_ORDER: Record<StatusWriterMode, number> = { 'node-authorizer': 0, 'constrained-impersonation': 1, rbac: 2, impersonation: 3 };
const SCOPE_RANK: Record<NodeStatusWriter['scope'], number> = { 'own-node': 0, named: 1, 'all-nodes': 2 };

/**
 * The result of the analysis. Writers that reach every node are listed once (on a cluster of
 * thousands of nodes, repeating them per node made the report gigabytes); `byNode` holds, for every
 * node, only the writers specific to it. Each list is sorted by mode, then subject.
 */
export interface NodeStatusWriterMap {
  allNodes: NodeStatusWriter[];
  byNode: Map<string, NodeStatusWriter[]>;
}

export class WriterAccumulator {
  private readonly all = new Map<string, NodeStatusWriter>();
  private readonly perNode = new Map<string, Map<string, NodeStatusWriter>>();

  constructor(
    private readonly nodes: readonly string[],
    private readonly ctx: AnalysisContext,
  ) {}

  addAll(w: NodeStatusWriter): void {
    const key = `${w.mode}|${refKey(w.subject)}`;
    const existing = this.all.get(key);
    if (existing) existing.via = [...existing.via, ...w.via];
    else this.all.set(key, { ...w, via: [...w.via] });
  }

  addOn(node: string, w: NodeStatusWriter): void {
    const key = `${w.mode}|${refKey(w.subject)}`;
    if (this.all.has(key)) return;
    let onNode = this.perNode.get(node);
    if (!onNode) this.perNode.set(node, (onNode = new Map()));
    const existing = onNode.get(key);
    if (!existing) onNode.set(key, { ...w, via: [...w.via] });
    else if (SCOPE_RANK[w.scope] > SCOPE_RANK[existing.scope]) onNode.set(key, { ...w, via: [...w.via, ...existing.via] });
    else existing.via = [...existing.via, ...w.via];
  }

  result(): NodeStatusWriterMap {
    const finalise = (w: NodeStatusWriter): NodeStatusWriter => {
      const via = [...w.via];
      if (this.isAdmin(w.subject)) via.push({ type: 'note', text: 'admin-equivalent: holds * verbs on * resources in * groups cluster-wide' });
      return { subject: w.subject, mode: w.mode, scope: w.scope, via: normaliseEvidence(via) };
    };
    const allNodes = [...this.all.values()].map(finalise).sort(compareWriters);
    const byNode = new Map<string, NodeStatusWriter[]>();
    for (const node of this.nodes) {
      // An entry added for one node before the same subject and mode turned out to reach every node is dropped.
      const own = [...(this.perNode.get(node)?.entries() ?? [])].filter(([key]) => !this.all.has(key)).map(([, w]) => finalise(w));
      byNode.set(node, own.sort(compareWriters));
    }
    return { allNodes, byNode };
  }

  private isAdmin(subject: SubjectRef): boolean {
    try {
      return this.ctx.isAdminEquivalent(subject);
    } catch {
      return false;
    }
  }
}

export function compareWriters(a: NodeStatusWriter, b: NodeStatusWriter): number {
  return MODE_ORDER[a.mode] - MODE_ORDER[b.mode] || compareSubjects(a.subject, b.subject) || SCOPE_RANK[b.scope] - SCOPE_RANK[a.scope];
}
