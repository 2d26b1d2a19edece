import { Document, isMap, isSeq, type YAMLMap } from 'yaml';
import { commentText } from '@/lib/role-builder/render-yaml';

// The audit Policy recommended for DRA (audit.k8s.io/v1). Rules are evaluated in order and the first
// match decides the level; a request no rule matches is not logged. Writes are logged everywhere
// (denied requests included, which is what AUDIT004 reads); bodies where the alerts need them.

export type AuditLevel = 'None' | 'Metadata' | 'Request' | 'RequestResponse';

export interface AuditPolicyRule {
  level: AuditLevel;
  verbs?: string[];
  users?: string[];
  userGroups?: string[];
  resources?: { group: string; resources?: string[]; resourceNames?: string[] }[];
  namespaces?: string[];
  nonResourceURLs?: string[];
  omitStages?: string[];
}

export interface AuditPolicy {
  apiVersion: 'audit.k8s.io/v1';
  kind: 'Policy';
  omitStages?: string[];
  omitManagedFields?: boolean;
  rules: AuditPolicyRule[];
}

const WRITES = ['create', 'update', 'patch', 'delete', 'deletecollection'];
const STATUS_WRITES = ['update', 'patch'];

export interface RecommendedPolicyOptions {
  /** Namespaces whose claims are logged with responses too (RequestResponse); other namespaces get Request. */
  tenantNamespaces?: string[];
}

/** The policy with the reason for each rule. */
export function recommendedAuditPolicy(options: RecommendedPolicyOptions = {}): { policy: AuditPolicy; reasons: string[] } {
  const rules: { rule: AuditPolicyRule; why: string }[] = [];
  const tenants = [...new Set(options.tenantNamespaces ?? [])].sort();
  const claims = { group: 'resource.k8s.io', resources: ['resourceclaims', 'resourceclaimtemplates'] };
  if (tenants.length > 0) {
    rules.push({
      rule: { level: 'RequestResponse', verbs: WRITES, resources: [claims], namespaces: tenants },
      why: 'Tenant claims and templates with request and response bodies: adminAccess (AUDIT001), opaque parameter size (AUDIT002) and what the server stored.',
    });
  }
  rules.push({
    rule: { level: tenants.length > 0 ? 'Request' : 'RequestResponse', verbs: WRITES, resources: [claims] },
    why:
      tenants.length > 0
        ? 'Claims elsewhere: request bodies are enough for the adminAccess and parameter-size alerts.'
        : 'Claim and template writes with bodies: adminAccess (AUDIT001) and opaque parameter size (AUDIT002) need them.',
  });
  rules.push({
    rule: {
      level: 'Request',
      verbs: STATUS_WRITES,
      resources: [{ group: 'resource.k8s.io', resources: ['resourceclaims/status'] }],
    },
    why: 'Allocation (binding) and driver status writes, allowed and denied (AUDIT004), with the device data written: the binding and driver checks run inside these writes, no request carries them as its subresource.',
  });
  rules.push({
    rule: { level: 'RequestResponse', verbs: WRITES, resources: [{ group: 'resource.k8s.io', resources: ['deviceclasses'] }] },
    why: 'Every DeviceClass change with its body (AUDIT003): selectors and config decide which devices tenants get.',
  });
  rules.push({
    rule: { level: 'Metadata', verbs: WRITES, resources: [{ group: 'resource.k8s.io', resources: ['resourceslices'] }] },
    why: 'Slice writes at Metadata: who published devices for which node, without the large bodies drivers refresh often.',
  });
  rules.push({
    rule: { level: 'Metadata', verbs: STATUS_WRITES, resources: [{ group: '', resources: ['nodes/status'] }] },
    why: 'nodes/status writes with the requester, the impersonated node and the pod-bound token node (AUDIT005).',
  });
  rules.push({
    rule: { level: 'None', verbs: ['get', 'list', 'watch'], resources: [{ group: 'resource.k8s.io', resources: ['resourceslices'] }] },
    why: 'Slice reads are the bulk of DRA traffic (schedulers and drivers watch them) and say nothing about writes.',
  });
  rules.push({
    rule: { level: 'Metadata', resources: [{ group: 'resource.k8s.io' }] },
    why: 'Every other resource.k8s.io request (reads of claims and classes, new resources) at Metadata, so unused-grant answers have data.',
  });
  return {
    policy: { apiVersion: 'audit.k8s.io/v1', kind: 'Policy', omitStages: ['RequestReceived'], rules: rules.map((r) => r.rule) },
    reasons: rules.map((r) => r.why),
  };
}

/** The policy as YAML with each rule preceded by why it is there. */
export function renderAuditPolicyYaml(policy: AuditPolicy, reasons: readonly string[]): string {
  const doc = new Document(policy, { aliasDuplicateObjects: false });
  doc.commentBefore =
    commentText(' dra-posture audit-policy: the audit policy for Dynamic Resource Allocation (first matching rule wins).') +
    '\n' +
    commentText(' Merge these rules above your existing rules; a later rule never sees a request an earlier rule matched.');
  const rules = (doc.contents as YAMLMap).get('rules', true);
  if (isSeq(rules)) {
    rules.items.forEach((item, i) => {
      if (!isMap(item)) return;
      if (reasons[i]) item.commentBefore = ` ${commentText(reasons[i])}`;
      for (const pair of item.items) if (isSeq(pair.value) && pair.value.items.every((v) => !isMap(v))) pair.value.flow = true;
    });
  }
  return doc.toString({ lineWidth: 0, minContentWidth: 0 });
}
