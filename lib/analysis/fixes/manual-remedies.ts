import type { CheckId } from '@/lib/analysis/catalog';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { Finding } from '@/lib/analysis/types';
import { describeRef, describeSubject } from '@/lib/k8s/refs';
import { indicatorsFor } from '@/lib/analysis/zeroing/device-classes';
import { list } from '@/lib/analysis/checks/check-helpers';

// The checks whose remedy is not an object change the engine can make and check (DESIGN §4: "a
// remediation is a change the engine can apply and check"): an API server flag, an audit policy file,
// device zeroing done by a driver, a decision only the cluster's owners can make (which limit, which
// capabilities a driver needs), an immutable object. Their issues carry `fix: {status: 'none'}` with
// why, and a remediation in words: no YAML that the engine has not checked.

export interface ManualRemedy {
  /** Why the engine proposes no change. */
  reason: (ctx: AnalysisContext, findings: readonly Finding[]) => string;
  /**
   * What a person does, in words (commands and flags, no object YAML). Absent: the issue's own text,
   * which for these checks is already words.
   */
  advice?: (ctx: AnalysisContext, findings: readonly Finding[]) => string;
}

const subjectsOf = (findings: readonly Finding[]) => list([...new Set(findings.flatMap((f) => f.subjects.map(describeSubject)))]);
const objectsOf = (findings: readonly Finding[], kind: string) =>
  [...new Set(findings.flatMap((f) => f.objects.filter((o) => o.kind === kind).map((o) => o.name)))].sort();

const AUDIT_EVENT: ManualRemedy = {
  reason: () => 'it is an event in the audit log, not a setting of an object: whether the request was expected decides what to change',
};

function zeroingAdvice(ctx: AnalysisContext, findings: readonly Finding[], shared: boolean): string {
  const classes = objectsOf(findings, 'DeviceClass');
  const steps = [
    `Make sure devices of ${list(classes)} are reset or scrubbed between tenants (a GPU reset, MIG reconfiguration or VFIO reassignment run by the driver or the platform)${shared ? ', or give each tenant its own DeviceClass' : ''}.`,
  ];
  const records = classes.map((name) => {
    const driver = ctx.deviceClasses.find((dc) => dc.name === name)?.driver ?? null;
    const annotation = indicatorsFor(driver, ctx.settings).indicators.find((i) => i.kind === 'deviceClassAnnotation' && i.key);
    return annotation?.key
      ? `kubectl annotate deviceclass ${name} ${annotation.key}=${annotation.equals ?? 'true'}`
      : `a zeroing indicator for driver ${driver ?? '(unknown)'} in settings.zeroingIndicators (its class ${name})`;
  });
  steps.push(`Once they are, record it so the posture shows it: ${records.join('; ')}.`);
  return steps.join(' ');
}

export const MANUAL_REMEDIES: Partial<Record<CheckId, ManualRemedy>> = {
  DRA006: {
    reason: (_ctx, findings) =>
      `whether ${subjectsOf(findings)} ${new Set(findings.flatMap((f) => f.subjects.map(describeSubject))).size === 1 ? 'writes' : 'write'} allocations (resourceclaims/binding, which lets it forge allocations: DRA007) or device status (resourceclaims/driver, for its driver's name) is not in the cluster state, and either grant is a new capability`,
    advice: (_ctx, findings) => {
      const rules = [
        ...new Set(
          findings.flatMap((f) =>
            f.evidence.flatMap((e) =>
              e.type === 'grant' && /status/.test((e.rule.resources ?? []).join(' ')) ? [`${describeRef(e.role)} rule #${e.ruleIndex}`] : [],
            ),
          ),
        ),
      ];
      return (
        'Granular status authorization (on by default since 1.36) refuses its status writes without one of them: grant update and patch on resourceclaims/binding at cluster scope if it allocates claims (only the scheduler and the resource-claim controller should), ' +
        "or associated-node:update and associated-node:patch on resourceclaims/driver with its driver's name in resourceNames if it is a node-local driver" +
        `${rules.length > 0 ? `; if it writes neither, remove update and patch on resourceclaims/status from ${list(rules)}` : ''}. ` +
        'An audit log (report --audit) shows which status fields it writes.'
      );
    },
  },
  DRA009: {
    reason: () =>
      'splitting the role needs to know which of its rules each component uses; a copy of the whole role per component would keep every permission it has today',
  },
  NODE004: {
    reason: () =>
      "the audiences the nodes need a grant for are not in the cluster state (audiences their pods' projected volumes and CSI drivers' tokenRequests name need none; kubelet credential providers' do, and they are set in the kubelet's configuration)",
    advice: (_ctx, findings) =>
      `In ${list(objectsOf(findings, 'ClusterRole').map((n) => `ClusterRole ${n}`)) || 'the role'}, write one rule per audience the nodes request tokens for: apiGroups [""], resources [the audience], resourceNames [the service accounts], verbs [request-serviceaccounts-token-audience]; never "*", and remove the rule if no audience outside the pods' own is needed.`,
  },
  NODE005: {
    reason: () =>
      "the fix is a kube-apiserver flag, not an object the engine can change and check: edit the API server's static pod manifest on each control-plane node",
  },
  CLAIM002: {
    reason: () =>
      "a ResourceClaim's and a ResourceClaimTemplate's spec cannot be changed once created (the API server refuses the update), and deleting them takes the devices from the pods that use them",
  },
  QUOTA003: { reason: () => 'whether the usage is expected, and which limit fits, is for the namespace’s owners to decide' },
  QUOTA004: {
    reason: () => "a claim's spec cannot be changed once created, and how many devices the workload needs is not in the cluster state",
  },
  ZERO001: {
    reason: () =>
      'zeroing is done by the driver or the platform when a device is released; no object change makes devices zeroed, and the annotation only records that they are',
    advice: (ctx, findings) => zeroingAdvice(ctx, findings, true),
  },
  ZERO002: {
    reason: () =>
      'zeroing is done by the driver or the platform when a device is released; no object change makes devices zeroed, and the annotation only records that they are',
    advice: (ctx, findings) => zeroingAdvice(ctx, findings, false),
  },
  POD001: {
    reason: () =>
      'the device nodes, capabilities and host paths the driver needs instead of privileged are not in the cluster state; without them the driver stops working',
    advice: (_ctx, findings) =>
      `Run the containers of ${list(objectsOf(findings, 'DaemonSet').concat(objectsOf(findings, 'Deployment')).concat(objectsOf(findings, 'Pod')))} with privileged: false, ` +
      "capabilities drop [ALL] and add only the capabilities the driver's documentation names, device nodes through CDI, and only the host paths it uses; " +
      'check the edited pod template with kubectl apply --dry-run=server before rolling it out.',
  },
  POD002: {
    reason: () => 'which host namespaces and host paths the driver uses is not in the cluster state; without them the driver stops working',
  },
  POD004: {
    reason: (_ctx, findings) => {
      const owners = findings.flatMap((f) => f.objects);
      const pods = owners.filter((o) => o.kind === 'Pod');
      const workloads = owners.filter((o) => o.kind !== 'Pod');
      const parts = [
        ...(pods.length > 0 ? ["a running pod's volumes cannot be changed (its spec is immutable), and deleting the pod is for its owners to decide"] : []),
        ...(workloads.length > 0
          ? [
              `removing the volumes from the pod template of ${list(workloads.map(describeRef))} restarts its pods without those host paths, and whether it still works without them (or is a driver or node agent that belongs in a platform namespace) is not in the cluster state`,
            ]
          : []),
        // Pod Security Admission is not modelled by the engine, and baseline refuses more than hostPath.
        "the namespace's Pod Security label (below) is not modelled by the engine, and baseline refuses every hostPath, privileged and host-namespace pod there, not only this one",
      ];
      return parts.join('; ');
    },
  },
  AUDIT001: AUDIT_EVENT,
  AUDIT002: AUDIT_EVENT,
  AUDIT003: AUDIT_EVENT,
  AUDIT004: AUDIT_EVENT,
  AUDIT005: AUDIT_EVENT,
  AUDIT006: {
    reason: () => 'the fix is an audit policy file on the control-plane nodes and kube-apiserver flags, not objects the engine can change and check',
  },
};
