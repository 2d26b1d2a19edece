import type { DeviceRequest, ResourceClaim, ResourceClaimSpec } from './dra-types';
import type { Container, KubeObject, NodeSelector, ObjectMeta, Pod, PodSpec, RoleBinding } from './types';

// JSON.parse makes a new string for every value, so a large cluster holds the same namespace, node,
// driver, image and kind strings hundreds of thousands of times (~20 bytes each beyond the first:
// ~80 MiB of a 10,000-node snapshot's ~390 MiB state). One table per load keeps one copy of each
// value of the fields that repeat; the copies are then garbage while still young, so they are not
// carried into the old generation either. Values only change identity, never content.

/** One copy of each string it has been given. */
export class StringTable {
  private readonly strings = new Map<string, string>();

  share(value: string): string {
    const known = this.strings.get(value);
    if (known !== undefined) return known;
    this.strings.set(value, value);
    return value;
  }

  shareArray(values: string[] | undefined): void {
    if (values === undefined) return;
    for (let i = 0; i < values.length; i++) values[i] = this.share(values[i]);
  }

  shareValues(record: Record<string, string> | undefined): void {
    if (record === undefined) return;
    for (const key in record) record[key] = this.share(record[key]);
  }
}

/** Shares the repeated strings of a normalised object of the bulk kinds (in place). */
export function shareObjectStrings(object: KubeObject, table: StringTable): void {
  object.apiVersion = table.share(object.apiVersion);
  object.kind = table.share(object.kind);
  shareMeta(object.metadata, table);
  switch (object.kind) {
    case 'Pod':
      sharePodSpec((object as Pod).spec, table);
      if ((object as Pod).status?.phase !== undefined) (object as Pod).status!.phase = table.share((object as Pod).status!.phase!);
      break;
    case 'ResourceClaim':
      shareClaim(object as ResourceClaim, table);
      break;
    case 'RoleBinding':
    case 'ClusterRoleBinding':
      shareBinding(object as RoleBinding, table);
      break;
  }
}

function shareMeta(meta: Partial<ObjectMeta> | undefined, table: StringTable): void {
  if (meta === undefined) return;
  if (meta.namespace !== undefined) meta.namespace = table.share(meta.namespace);
  table.shareValues(meta.labels);
  const owners = meta.ownerReferences;
  if (owners === undefined) return;
  for (const o of owners) {
    if (o.apiVersion !== undefined) o.apiVersion = table.share(o.apiVersion);
    o.kind = table.share(o.kind);
    o.name = table.share(o.name);
  }
}

function sharePodSpec(spec: PodSpec | undefined, table: StringTable): void {
  if (spec === undefined) return;
  if (spec.nodeName !== undefined) spec.nodeName = table.share(spec.nodeName);
  if (spec.serviceAccountName !== undefined) spec.serviceAccountName = table.share(spec.serviceAccountName);
  if (spec.serviceAccount !== undefined) spec.serviceAccount = table.share(spec.serviceAccount);
  shareContainers(spec.containers, table);
  shareContainers(spec.initContainers, table);
  for (const v of spec.volumes ?? []) {
    v.name = table.share(v.name);
    if (v.hostPath !== undefined) v.hostPath.path = table.share(v.hostPath.path);
  }
}

function shareContainers(containers: Container[] | undefined, table: StringTable): void {
  if (containers === undefined) return;
  for (const c of containers) {
    c.name = table.share(c.name);
    if (c.image !== undefined) c.image = table.share(c.image);
    for (const m of c.volumeMounts ?? []) {
      m.name = table.share(m.name);
      m.mountPath = table.share(m.mountPath);
    }
  }
}

function shareClaim(claim: ResourceClaim, table: StringTable): void {
  shareClaimSpec(claim.spec, table);
  const status = claim.status;
  if (status === undefined) return;
  for (const r of status.allocation?.devices?.results ?? []) {
    r.request = table.share(r.request);
    r.driver = table.share(r.driver);
    r.pool = table.share(r.pool);
    r.device = table.share(r.device);
  }
  shareNodeSelector(status.allocation?.nodeSelector, table);
  for (const r of status.reservedFor ?? []) r.resource = table.share(r.resource);
}

function shareClaimSpec(spec: ResourceClaimSpec | undefined, table: StringTable): void {
  for (const r of spec?.devices?.requests ?? []) shareRequest(r, table);
}

function shareRequest(request: DeviceRequest, table: StringTable): void {
  request.name = table.share(request.name);
  const exactly = request.exactly;
  if (exactly !== undefined) {
    exactly.deviceClassName = table.share(exactly.deviceClassName);
    if (exactly.allocationMode !== undefined) exactly.allocationMode = table.share(exactly.allocationMode);
  }
  for (const s of request.firstAvailable ?? []) {
    s.name = table.share(s.name);
    s.deviceClassName = table.share(s.deviceClassName);
    if (s.allocationMode !== undefined) s.allocationMode = table.share(s.allocationMode);
  }
}

function shareNodeSelector(selector: NodeSelector | undefined, table: StringTable): void {
  for (const term of selector?.nodeSelectorTerms ?? []) {
    for (const list of [term.matchFields, term.matchExpressions]) {
      for (const r of list ?? []) {
        r.key = table.share(r.key);
        r.operator = table.share(r.operator);
        table.shareArray(r.values);
      }
    }
  }
}

function shareBinding(binding: RoleBinding, table: StringTable): void {
  const ref = binding.roleRef;
  if (ref.apiGroup !== undefined) ref.apiGroup = table.share(ref.apiGroup);
  ref.kind = table.share(ref.kind);
  ref.name = table.share(ref.name);
  for (const s of binding.subjects ?? []) {
    s.kind = table.share(s.kind);
    s.name = table.share(s.name);
    if (s.namespace !== undefined) s.namespace = table.share(s.namespace);
    if (s.apiGroup !== undefined) s.apiGroup = table.share(s.apiGroup);
  }
}
