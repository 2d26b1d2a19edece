import { describeSubject } from '@/lib/k8s/refs';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { capability } from '@/lib/analysis/capabilities';
import { holdingOf } from '@/lib/analysis/capability-holders';
import type { Finding } from '@/lib/analysis/types';
import { list } from '@/lib/analysis/checks/check-helpers';
import type { ObservedRequests } from './holder-needs';
import { proposeNodeWrites } from './propose-node-writes';
import { holdersOfIssue } from './propose-remove-access';
import type { Proposed } from './verify-fix';

// NODE001: nodes/status of other nodes. When a role grants it, the fix is NODE003's on the status
// subresource (proposeNodeWrites): the verbs come out of the rule, a node-local holder keeps its own
// node's status through associated-node impersonation, a controller keeps it unless an audit log
// shows it never writes node status. Two other causes are not a role's rule: every kubelet writing
// every node's status because NodeRestriction is off (the API server's flags), and identities that
// reach a writer by impersonation (the impersonation grant is the fix): no automatic fix for those.

export function proposeNodeStatus(ctx: AnalysisContext, findings: readonly Finding[], observed?: ObservedRequests): Proposed {
  if (findings.some((f) => f.evidence.some((e) => e.type === 'note' && e.text.startsWith('NodeRestriction admission is off'))))
    return {
      none: "every kubelet writes every node's status because NodeRestriction admission is off: that is the API server's configuration, not a role. Run kube-apiserver with NodeRestriction in --enable-admission-plugins",
    };
  const cap = capability('write-other-node-status');
  const indirect = holdersOfIssue(ctx, findings).filter((h) => !holdingOf(ctx, cap, h.subject));
  if (indirect.length > 0)
    return {
      none: `${list(indirect.map((h) => describeSubject(h.subject)))} reach${indirect.length === 1 ? 'es' : ''} other nodes' status by impersonation (of a node or of a writer), not by a rule on nodes/status: remove the impersonation grants named in the finding, or replace arbitrary-node with associated-node impersonation`,
    };
  return proposeNodeWrites(ctx, findings, observed, 'status');
}
