import { allocatedNodeName } from '@/lib/authz/dra-status';
import type { ResourceAttributes } from '@/lib/authz/types';
import { nodeNameFromUsername, parseServiceAccountUsername, serviceAccountUsername } from '@/lib/authz/user-info';
import { simulatedWriteOf, type SimulatedWrite } from '@/lib/authz/question-write';
import type { WriteVerb } from '@/lib/authz/write-request';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { KindDescriptor } from '@/lib/k8s/kinds';
import { manifestYaml, type YamlValue } from '@/lib/k8s/manifest-yaml';
import type { KubeObject, ResourceClaim, SubjectRef } from '@/lib/k8s/types';
import { exampleNode, firstByName } from './explorer-examples';

// What the explorer's "simulate a write" form opens with: a write of the loaded source (its nodes,
// drivers and claims), never the demo's names, and from a who-can answer the write that answer is
// about, sent by the subject of the row. The form stays editable: this is a starting point.

export interface SimulatorPrefill {
  /** Identifies this prefill: the form takes it when the key changes (a new "simulate this write"). */
  key: string;
  user: string;
  groups: string;
  node: string;
  verb: '' | WriteVerb;
  subresource: string;
  object: string;
  old: string;
  /** What the prefilled write does, in a sentence. */
  note: string;
}

/** An object as a manifest to paste: server-set metadata (uid, resourceVersion, owners, times) left out. */
function asManifest(o: KubeObject, keepStatus: boolean): Record<string, YamlValue> {
  const { metadata, ...rest } = o as KubeObject & Record<string, unknown>;
  const out: Record<string, YamlValue> = {};
  for (const [k, v] of Object.entries(rest)) if (keepStatus || k !== 'status') out[k] = v as YamlValue;
  const meta: Record<string, YamlValue> = { name: metadata.name };
  if (metadata.namespace) meta.namespace = metadata.namespace;
  if (metadata.labels && Object.keys(metadata.labels).length) meta.labels = metadata.labels;
  return { apiVersion: o.apiVersion, kind: o.kind, metadata: meta, ...out };
}

function apiVersionOf(kind: KindDescriptor): string {
  return kind.group ? `${kind.group}/${kind.versions[0]}` : kind.versions[0];
}

const yaml = (v: Record<string, YamlValue>) => `${manifestYaml(v)}\n`;

function sliceSpec(nodeName: string, driver: string): Record<string, YamlValue> {
  return { nodeName, driver, pool: { name: nodeName, generation: 1, resourceSliceCount: 1 } };
}

/**
 * The form's opening write: the first node with devices publishing a ResourceSlice for another node
 * of the cluster (what NodeRestriction refuses, when it runs), with a driver the cluster has.
 */
export function defaultSimulatorPrefill(state: ClusterState): SimulatorPrefill {
  const slice = firstByName(state.resourceSlices, (s) => !!s.spec.nodeName);
  const target = slice?.spec.nodeName ?? exampleNode(state) ?? 'node-name';
  const driver = slice?.spec.driver ?? state.resourceSlices[0]?.spec.driver ?? 'gpu.example.com';
  const sliceNodes = new Set(state.resourceSlices.map((s) => s.spec.nodeName));
  const other =
    firstByName(state.nodes, (n) => n.metadata.name !== target && sliceNodes.has(n.metadata.name)) ??
    firstByName(state.nodes, (n) => n.metadata.name !== target);
  const sender = other?.metadata.name ?? target;
  const object = { apiVersion: 'resource.k8s.io/v1', kind: 'ResourceSlice', metadata: { name: `${target}-simulated` }, spec: sliceSpec(target, driver) };
  return {
    key: '',
    user: `system:node:${sender}`,
    groups: '',
    node: '',
    verb: '',
    subresource: '',
    object: yaml(object),
    old: '',
    note:
      sender === target
        ? `Node ${sender} publishes ${driver} devices for itself.`
        : `Node ${sender} publishes ${driver} devices for another node, ${target}: NodeRestriction refuses this when the cluster runs it.`,
  };
}

interface Sender {
  user: string;
  groups: string;
  /** Describes the sender in the note. */
  who: string;
}

/** The username the write is sent as: the subject itself, or for a group one member of it. */
function senderOf(state: ClusterState, subject: SubjectRef, node: string | undefined): Sender {
  if (subject.kind === 'ServiceAccount') {
    const ns = subject.namespace ?? '';
    return { user: serviceAccountUsername(ns, subject.name), groups: '', who: `service account ${ns}/${subject.name}` };
  }
  if (subject.kind === 'User') return { user: subject.name, groups: '', who: `user ${subject.name}` };
  // A group: a member of it. Node and service-account groups have real members in the cluster.
  if (subject.name === 'system:nodes') {
    const n = node ?? exampleNode(state) ?? 'node-name';
    return { user: `system:node:${n}`, groups: '', who: `node ${n} (group system:nodes)` };
  }
  const saGroup = /^system:serviceaccounts(?::(.+))?$/.exec(subject.name);
  if (saGroup) {
    const sa = firstByName(state.serviceAccounts, (s) => !saGroup[1] || s.metadata.namespace === saGroup[1]);
    const ns = sa?.metadata.namespace ?? saGroup[1] ?? 'default';
    const name = sa?.metadata.name ?? 'default';
    return { user: serviceAccountUsername(ns, name), groups: '', who: `service account ${ns}/${name} (group ${subject.name})` };
  }
  return { user: `member-of-${subject.name}`, groups: subject.name, who: `a member of group ${subject.name}` };
}

const claimWithResults = (c: ResourceClaim, driver?: string) => (c.status?.allocation?.devices?.results ?? []).some((r) => !driver || r.driver === driver);

/** The claim a status write is about: in the question's namespace and name when given; allocated when one is. */
function claimFor(state: ClusterState, request: ResourceAttributes, write: SimulatedWrite, sender: Sender): ResourceClaim | undefined {
  const inScope = (c: ResourceClaim) =>
    (!request.namespace || c.metadata.namespace === request.namespace) && (write.claimCheck === 'driver' || !request.name || c.metadata.name === request.name);
  const driver = write.claimCheck === 'driver' ? request.name || undefined : undefined;
  // A node-local writer's token names its node: a claim allocated there, when the sender is a node's identity.
  const senderNode = nodeNameFromUsername(sender.user);
  return (
    (senderNode ? firstByName(state.resourceClaims, (c) => inScope(c) && claimWithResults(c, driver) && allocatedNodeName(c) === senderNode) : undefined) ??
    firstByName(state.resourceClaims, (c) => inScope(c) && claimWithResults(c, driver)) ??
    firstByName(state.resourceClaims, inScope)
  );
}

function claimStatusWrite(
  claim: ResourceClaim,
  write: SimulatedWrite,
  driver: string | undefined,
): { object: Record<string, YamlValue>; old: Record<string, YamlValue>; what: string } {
  const name = `${claim.metadata.namespace}/${claim.metadata.name}`;
  const full = asManifest(claim, true);
  const status = (claim.status ?? {}) as Record<string, YamlValue>;
  if (write.claimCheck === 'binding') {
    if (claim.status?.allocation) {
      const { allocation: _a, reservedFor: _r, devices: _d, ...unallocated } = status;
      return { object: full, old: { ...full, status: unallocated }, what: `sets the allocation of claim ${name} (resourceclaims/binding guards it)` };
    }
    const reservedFor = [{ resource: 'pods', name: 'simulated-consumer', uid: '00000000-0000-0000-0000-000000000000' }];
    return { object: { ...full, status: { ...status, reservedFor } }, old: full, what: `reserves claim ${name} for a pod (resourceclaims/binding guards it)` };
  }
  const results = (claim.status?.allocation?.devices?.results ?? []).filter((r) => !driver || r.driver === driver);
  const devices = results.length
    ? results.map((r) => ({ driver: r.driver, pool: r.pool, device: r.device }))
    : [{ driver: driver ?? 'gpu.example.com', pool: 'pool', device: 'device-0' }];
  const { devices: _d, ...before } = status;
  const drivers = [...new Set(devices.map((d) => d.driver))].join(', ');
  return {
    object: { ...full, status: { ...before, devices } },
    old: { ...full, status: before },
    what: `writes ${drivers} device status of claim ${name} (resourceclaims/driver guards it)`,
  };
}

/** An object of the kind for the question: in its namespace and with its name when given. */
function objectFor(state: ClusterState, request: ResourceAttributes, kind: KindDescriptor): KubeObject | undefined {
  const items = state[kind.collection] as unknown as KubeObject[];
  return firstByName(items, (o) => (!request.namespace || o.metadata.namespace === request.namespace) && (!request.name || o.metadata.name === request.name));
}

/**
 * The write a who-can answer's row stands for, sent by that row's subject: the question's verb and
 * resource on an object of the loaded source (a claim for the DRA status checks, the named node for
 * nodes/status). Undefined when the question is not a write the simulator sends.
 */
export function simulatorPrefillFor(state: ClusterState, request: ResourceAttributes, subject: SubjectRef): SimulatorPrefill | undefined {
  const write = simulatedWriteOf(request);
  if (!write) return undefined;
  const key = JSON.stringify([
    subject.kind,
    subject.namespace ?? '',
    subject.name,
    request.verb,
    request.group,
    request.resource,
    request.subresource,
    request.namespace,
    request.name,
  ]);
  const kindName = write.kind.kind;
  // The node a node identity writes as: the one the question names, else where the object lives.
  const nodeHint = kindName === 'Node' ? request.name || undefined : undefined;
  const sender = senderOf(state, subject, nodeHint);
  const base = { key, user: sender.user, groups: sender.groups, node: '', verb: write.verb, subresource: write.subresource };

  if (write.claimCheck) {
    const claim = claimFor(state, request, write, sender);
    if (!claim) return undefined;
    const driver = write.claimCheck === 'driver' ? request.name || undefined : undefined;
    const w = claimStatusWrite(claim, write, driver);
    // associated-node: is tried only with a token bound to the claim's node: the service account's pod there.
    const node = write.driverMode === 'associated-node' && parseServiceAccountUsername(sender.user) ? (allocatedNodeName(claim) ?? '') : '';
    return {
      ...base,
      node,
      object: yaml(w.object),
      old: yaml(w.old),
      note: `${request.verb} as ${sender.who}: ${w.what}${node ? `, with a token of node ${node}` : ''}.`,
    };
  }

  // A node identity writes its own Node object unless the question names another.
  const senderNode = nodeNameFromUsername(sender.user);
  const found = objectFor(state, kindName === 'Node' && !request.name && senderNode ? { ...request, name: senderNode } : request, write.kind);
  const manifest: Record<string, YamlValue> = found
    ? asManifest(found, write.subresource === 'status')
    : {
        apiVersion: apiVersionOf(write.kind),
        kind: kindName,
        metadata: {
          name: request.name || `simulated-${kindName.toLowerCase()}`,
          ...(write.kind.namespaced ? { namespace: request.namespace || 'default' } : {}),
        },
        // A slice is checked by NodeRestriction on its node: the sender's own, else a node of the source.
        ...(kindName === 'ResourceSlice' ? { spec: sliceSpec(senderNode ?? exampleNode(state) ?? 'node-name', 'gpu.example.com') } : {}),
      };
  const meta = manifest.metadata as Record<string, YamlValue>;
  const where = `${kindName} ${meta.namespace ? `${meta.namespace}/` : ''}${meta.name}`;
  const stored = write.verb !== 'create';
  return {
    ...base,
    object: yaml(manifest),
    old: stored ? yaml(manifest) : '',
    note: `${write.verb}${write.subresource ? ` ${write.subresource}` : ''} of ${found ? '' : 'a made-up '}${where} as ${sender.who}${found ? ', as it is in the cluster' : ''}.`,
  };
}
