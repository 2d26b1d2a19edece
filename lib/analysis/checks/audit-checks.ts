import type { Evidence } from '@/lib/analysis/types';
import type { Check, FindingDraft } from './check-types';
import { visibleApiServers } from '@/lib/k8s/api-server-flags';

// AUDIT006: the static side of the audit family (AUDIT001–005 come from an audit log, lib/audit).
// Without a policy file the API server audits nothing; without a backend the events go nowhere.
// The policy file itself is not visible (ConfigMap values are never read), so only the flags are judged;
// `dra-posture audit-policy --check FILE` judges a policy file.

const BACKENDS = ['audit-log-path', 'audit-webhook-config-file'];

export const audit006: Check = {
  id: 'AUDIT006',
  run(ctx) {
    const out: FindingDraft[] = [];
    for (const { pod, found, flags } of visibleApiServers(ctx.state.pods)) {
      const object = { kind: 'Pod', namespace: 'kube-system', name: pod.metadata.name };
      const base = `spec.containers[${found.index}]`;
      const policy = flags.get('audit-policy-file');
      const backends = BACKENDS.filter((b) => flags.get(b)?.values.some((v) => v !== ''));
      let problem: string;
      const evidence: Evidence[] = [];
      if (!policy || policy.values.every((v) => v === '')) problem = 'no --audit-policy-file: the API server audits no request';
      else if (backends.length === 0) {
        problem = `--audit-policy-file=${policy.values.join(',')} but neither --audit-log-path nor --audit-webhook-config-file: the events are written nowhere`;
        evidence.push({ type: 'field', object, path: `${base}.${policy.at}`, value: `--audit-policy-file=${policy.values.join(',')}` });
      } else continue;
      if (evidence.length === 0) evidence.push({ type: 'field', object, path: base, value: null });
      out.push({
        subjects: [],
        objects: [object],
        message: `kube-apiserver in Pod kube-system/${pod.metadata.name}${pod.spec?.nodeName ? ` on ${pod.spec.nodeName}` : ''}: ${problem}. Claim creates, status (driver and binding) writes and DeviceClass changes are not logged.`,
        evidence,
        remediation:
          'Write the policy printed by `dra-posture audit-policy` (merged above your own rules) and start kube-apiserver with --audit-policy-file=<file> and --audit-log-path=<file> (or --audit-webhook-config-file); then read the log with `dra-posture report --audit PATH`.',
      });
    }
    return out;
  },
};

/** AUDIT001–005 need an audit log: from the cluster alone they find nothing (lib/audit raises them from the log). */
const fromLogOnly = (id: Check['id']): Check => ({ id, run: () => [] });

export const AUDIT_CHECKS: Check[] = [
  fromLogOnly('AUDIT001'),
  fromLogOnly('AUDIT002'),
  fromLogOnly('AUDIT003'),
  fromLogOnly('AUDIT004'),
  fromLogOnly('AUDIT005'),
  audit006,
];
