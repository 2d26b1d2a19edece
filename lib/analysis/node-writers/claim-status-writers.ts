import type { AnalysisContext } from '@/lib/analysis/context-types';
import { canonicalSubject } from '@/lib/analysis/context/identities';
import type { AuthzEngine } from '@/lib/authz/authz-engine';
import { allocatedNodeName, type ClaimStatusDecision } from '@/lib/authz/dra-status';
import type { UserInfo } from '@/lib/authz/types';
import { serviceAccountUser } from '@/lib/authz/user-info';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { Pod, ResourceClaim, SubjectRef } from '@/lib/k8s/types';
import type { ClaimStatusWriter, Evidence } from '@/lib/report/types';
import { resourceNamesInRules } from './rule-names';
import { cmp, compareSubjects, evidenceFromDecision, keyOfSubject, normaliseEvidence, podServiceAccount, subjectAppliesTo, userForSubject } from './subjects';

// DESIGN §3 / dra-facts §10: per node and driver with claims allocated there, who can write those
// claims' status.devices: `associated-node` (a service account whose pod token names the claim's
// node) or `arbitrary-node` (any claim of that driver, wherever it is allocated).

const WRITE_VERBS = ['update', 'patch'] as const;
const MODE_ORDER: Record<ClaimStatusWriter['mode'], number> = { 'associated-node': 0, 'arbitrary-node': 1 };

/** Claims with an allocation, per node and driver (node = the strict allocated node, else the nodes of the reserved pods). */
export type ClaimPlacement = Map<string, Map<string, ResourceClaim[]>>;

export function placeAllocatedClaims(state: ClusterState): ClaimPlacement {
  const podsByUid = new Map<string, Pod>();
  const podsByName = new Map<string, Pod>();
  for (const p of state.pods) {
    if (p.metadata.uid) podsByUid.set(p.metadata.uid, p);
    podsByName.set(`${p.metadata.namespace ?? ''}/${p.metadata.name}`, p);
  }
  const out: ClaimPlacement = new Map();
  const claims = [...state.resourceClaims].sort((a, b) => cmp(a.metadata.namespace ?? '', b.metadata.namespace ?? '') || cmp(a.metadata.name, b.metadata.name));
  for (const claim of claims) {
    const results = claim.status?.allocation?.devices?.results ?? [];
    const drivers = [...new Set(results.map((r) => r.driver).filter((d): d is string => typeof d === 'string' && d !== ''))].sort();
    if (drivers.length === 0) continue;
    for (const node of nodesOfClaim(claim, podsByUid, podsByName)) {
      let byDriver = out.get(node);
      if (!byDriver) out.set(node, (byDriver = new Map()));
      for (const driver of drivers) {
        let list = byDriver.get(driver);
        if (!list) byDriver.set(driver, (list = []));
        list.push(claim);
      }
    }
  }
  return out;
}

function nodesOfClaim(claim: ResourceClaim, podsByUid: Map<string, Pod>, podsByName: Map<string, Pod>): string[] {
  const strict = allocatedNodeName(claim);
  if (strict !== undefined) return [strict];
  const ns = claim.metadata.namespace ?? '';
  const nodes = new Set<string>();
  for (const ref of claim.status?.reservedFor ?? []) {
    if (ref.resource !== 'pods' || (ref.apiGroup ?? '') !== '') continue;
    const pod = (ref.uid ? podsByUid.get(ref.uid) : undefined) ?? podsByName.get(`${ns}/${ref.name}`);
    if (pod && (pod.metadata.namespace ?? '') === ns && pod.spec?.nodeName) nodes.add(pod.spec.nodeName);
  }
  return [...nodes].sort();
}

export type ClaimStatusWriterMap = Map<string, ClaimStatusWriter[]>;

export function listClaimStatusWriters(ctx: AnalysisContext): ClaimStatusWriterMap {
  return new ClaimWriterAnalysis(ctx).run();
}

/** Shared by listClaimStatusWriters and the blast radius: who-can caches and per-claim decisions. */
export class ClaimWriterAnalysis {
  readonly engine: AuthzEngine;
  readonly placement: ClaimPlacement;
  private readonly candidateCache = new Map<string, { associated: Candidate[]; arbitrary: Candidate[] }>();
  private readonly saOnNode = new Map<string, { namespace: string; name: string }[]>();
  private readonly decisionCache = new Map<string, { mode?: ClaimStatusWriter['mode']; via: Evidence[] } | null>();
  /** Some rule on resourceclaims/status lists resourceNames: then the claim's name matters to a decision. */
  private readonly statusNamesMatter: boolean;

  constructor(readonly ctx: AnalysisContext) {
    this.engine = ctx.engine;
    this.placement = placeAllocatedClaims(ctx.state);
    this.statusNamesMatter = resourceNamesInRules(this.engine, 'resource.k8s.io', 'resourceclaims', 'status', WRITE_VERBS).size > 0;
    for (const pod of ctx.state.pods) {
      const node = pod.spec?.nodeName;
      if (!node) continue;
      let list = this.saOnNode.get(node);
      if (!list) this.saOnNode.set(node, (list = []));
      const ns = pod.metadata.namespace ?? '';
      const name = podServiceAccount(pod);
      if (!list.some((s) => s.namespace === ns && s.name === name)) list.push({ namespace: ns, name });
    }
    for (const list of this.saOnNode.values()) list.sort((a, b) => cmp(a.namespace, b.namespace) || cmp(a.name, b.name));
  }

  run(): ClaimStatusWriterMap {
    const out: ClaimStatusWriterMap = new Map();
    for (const node of [...this.placement.keys()].sort()) {
      const writers = new Map<string, ClaimStatusWriter>();
      const byDriver = this.placement.get(node)!;
      for (const driver of [...byDriver.keys()].sort()) {
        for (const claim of byDriver.get(driver)!) {
          for (const w of this.writersOfClaim(node, driver, claim)) {
            const key = `${driver}|${w.mode}|${keyOfSubject(w.subject)}`;
            if (!writers.has(key)) writers.set(key, w);
          }
        }
      }
      // A subject that may write any node's claims needs no associated-node entry beside it.
      const list = [...writers.values()].filter(
        (w) => w.mode === 'arbitrary-node' || !writers.has(`${w.driver}|arbitrary-node|${keyOfSubject(w.subject)}`),
      );
      list.sort(compareClaimWriters);
      out.set(node, list.map((w) => ({ ...w, via: normaliseEvidence(w.via) })));
    }
    return out;
  }

  /** Every writer of one claim's status.devices entries for `driver`, as seen from `node`. */
  writersOfClaim(node: string, driver: string, claim: ResourceClaim): ClaimStatusWriter[] {
    const ns = claim.metadata.namespace ?? '';
    const out: ClaimStatusWriter[] = [];
    if (!this.engine.features.granularStatusAuthorization) {
      for (const c of this.legacyCandidates(ns, claim.metadata.name)) {
        const d = this.decide(userForSubject(c.subject), claim, driver);
        if (d) out.push({ driver, subject: c.subject, mode: 'arbitrary-node', via: [...d.via, { type: 'note', text: 'granular ResourceClaim status authorization is off: resourceclaims/status alone lets it write status.devices' }] });
      }
      return out;
    }
    const { associated, arbitrary } = this.candidates(ns, driver);
    for (const c of arbitrary) {
      // Without a node-bound token only arbitrary-node is tried: the decision does not depend on the node.
      const d = this.cachedDecision(`arbitrary|${keyOfSubject(c.subject)}`, claim, driver, () => userForSubject(c.subject));
      if (d?.mode === 'arbitrary-node') out.push({ driver, subject: c.subject, mode: 'arbitrary-node', via: d.via });
    }
    if (associated.length > 0 && allocatedNodeName(claim) === node) {
      for (const sa of this.saOnNode.get(node) ?? []) {
        const plain = serviceAccountUser(sa.namespace, sa.name);
        if (!associated.some((c) => subjectAppliesTo(c.subject, plain))) continue;
        const d = this.cachedDecision(`associated|${sa.namespace}/${sa.name}|${node}`, claim, driver, () => serviceAccountUser(sa.namespace, sa.name, node));
        if (d?.mode === 'associated-node') {
          out.push({
            driver,
            subject: { kind: 'ServiceAccount', name: sa.name, namespace: sa.namespace },
            mode: 'associated-node',
            via: [...d.via, { type: 'note', text: `its pods on ${node} carry tokens bound to ${node}, the claim's allocated node` }],
          });
        }
      }
    }
    return out;
  }

  /**
   * A decision depends on the identity, the claim's namespace, the driver and the allocated node; on
   * the claim's name only when some resourceclaims/status rule lists resourceNames.
   */
  private cachedDecision(identityKey: string, claim: ResourceClaim, driver: string, user: () => UserInfo): { mode?: ClaimStatusWriter['mode']; via: Evidence[] } | undefined {
    const ns = claim.metadata.namespace ?? '';
    const key = `${identityKey}|${ns}|${driver}|${allocatedNodeName(claim) ?? ''}|${this.statusNamesMatter ? claim.metadata.name : ''}`;
    let d = this.decisionCache.get(key);
    if (d === undefined) this.decisionCache.set(key, (d = this.decide(user(), claim, driver) ?? null));
    return d ?? undefined;
  }

  /** claimStatusWrite for a devices-only change by `driver`, update then patch. */
  decide(user: UserInfo, claim: ResourceClaim, driver: string): { mode?: ClaimStatusWriter['mode']; via: Evidence[] } | undefined {
    for (const verb of WRITE_VERBS) {
      const d: ClaimStatusDecision = this.engine.claimStatusWrite(user, claim, { verb, changesBinding: false, drivers: [driver] });
      if (!d.allowed) continue;
      const via: Evidence[] = [];
      for (const c of d.checks) via.push(...evidenceFromDecision(c.decision));
      return { mode: d.drivers[0]?.mode, via };
    }
    return undefined;
  }

  /** Binding subjects holding associated-node / arbitrary-node verbs on resourceclaims/driver `driver` in `namespace`. */
  candidates(namespace: string, driver: string): { associated: Candidate[]; arbitrary: Candidate[] } {
    const key = `${namespace}\u0000${driver}`;
    let c = this.candidateCache.get(key);
    if (!c) {
      const collect = (prefix: string) => {
        const m = new Map<string, Candidate>();
        for (const verb of WRITE_VERBS) {
          const entries = this.engine.whoCan({ resource: { verb: `${prefix}:${verb}`, group: 'resource.k8s.io', resource: 'resourceclaims', subresource: 'driver', namespace, name: driver } });
          for (const e of entries) {
            if (e.via !== 'rbac') continue;
            const subject = canonicalSubject(e.subject);
            m.set(keyOfSubject(subject), { subject });
          }
        }
        return [...m.values()].sort((a, b) => compareSubjects(a.subject, b.subject));
      };
      c = { associated: collect('associated-node'), arbitrary: collect('arbitrary-node') };
      this.candidateCache.set(key, c);
    }
    return c;
  }

  legacyCandidates(namespace: string, name: string): Candidate[] {
    const m = new Map<string, Candidate>();
    for (const verb of WRITE_VERBS) {
      for (const e of this.engine.whoCan({ resource: { verb, group: 'resource.k8s.io', resource: 'resourceclaims', subresource: 'status', namespace, name } })) {
        if (e.via !== 'rbac') continue;
        const subject = canonicalSubject(e.subject);
        m.set(keyOfSubject(subject), { subject });
      }
    }
    return [...m.values()].sort((a, b) => compareSubjects(a.subject, b.subject));
  }
}

interface Candidate {
  subject: SubjectRef;
}

export function compareClaimWriters(a: ClaimStatusWriter, b: ClaimStatusWriter): number {
  return cmp(a.driver, b.driver) || MODE_ORDER[a.mode] - MODE_ORDER[b.mode] || compareSubjects(a.subject, b.subject);
}
