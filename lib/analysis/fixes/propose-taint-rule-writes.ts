import { describeSubject } from '@/lib/k8s/refs';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { capability } from '@/lib/analysis/capabilities';
import type { Finding } from '@/lib/analysis/types';
import { res } from './holder';
import type { ObservedRequests } from './holder-needs';
import { holdersOfIssue, proposeRemoveAccess } from './propose-remove-access';
import type { Proposed } from './verify-fix';

// DRA011: DeviceTaintRule writes. The writes come out of the granting rules. A DRA component whose
// role grants them (a driver's chart: Intel's Gaudi driver creates DeviceTaintRules for unhealthy
// devices) may use them by design, and no persona request says so: only an audit log showing it
// never writes DeviceTaintRules lets the verbs go; otherwise there is no safe automatic fix.

const DRA = 'resource.k8s.io';
const WRITES = ['create', 'update', 'patch', 'delete', 'deletecollection'];

export function proposeTaintRuleWrites(ctx: AnalysisContext, findings: readonly Finding[], observed?: ObservedRequests): Proposed {
  for (const h of holdersOfIssue(ctx, findings)) {
    if (!ctx.isDraComponent(h.subject)) continue;
    const seen = observed?.get(h.user.name);
    if (seen && !seen.some((a) => a.group === DRA && a.resource === 'devicetaintrules' && WRITES.includes(a.verb))) continue;
    return {
      none:
        `${describeSubject(h.subject)} is a DRA component, and a driver's role grants DeviceTaintRule writes it may use by design (tainting unhealthy devices); ` +
        (seen ? 'the audit log shows it writing DeviceTaintRules' : 'an audit log (--audit) showing it never writes DeviceTaintRules would let the verbs go') +
        `. Otherwise have the driver publish device taints in its own ResourceSlices, which reach only its own devices`,
    };
  }
  return proposeRemoveAccess(ctx, findings, {
    remove: { group: DRA, resources: ['devicetaintrules'], verbs: WRITES },
    capabilities: [capability('write-devicetaintrules')],
    refused: () => [res('create', DRA, 'devicetaintrules'), res('update', DRA, 'devicetaintrules', { name: 'any-rule' })],
  });
}
