import type { SubjectRef } from '@/lib/k8s/types';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { mountedHostPaths } from '@/lib/analysis/context/pod-facts';
import { memoPerSubject } from '@/lib/analysis/context/memo-per-analysis';

// The DRA driver names a service account serves, from facts about its pods: the plugin directory or
// registration socket they mount (/var/lib/kubelet/plugins/<driver>, .../plugins_registry/<driver>-reg.sock),
// a --driver-name style argument, and, when those say nothing, the drivers whose ResourceSlices sit
// on the nodes its pods run on, narrowed by the words the driver name shares with the account, its
// namespace, its workloads, containers and images (a node carries several drivers' slices). Unknown (empty)
// when the facts do not single a driver out: a fix is not guessed from every driver of the cluster.

const PLUGIN_DIR = /^\/var\/lib\/kubelet\/plugins\/([^/]+)/;
const REGISTRATION = /^\/var\/lib\/kubelet\/plugins_registry\/(.+)-reg\.sock$/;
const ARGUMENT = /^--?(?:driver-name|driver|drivername)=(.+)$/;
/** Words every chart and driver name carries: they tell nothing apart. */
const COMMON = new Set([
  'dra',
  'driver',
  'drivers',
  'resource',
  'kubelet',
  'plugin',
  'kubeletplugin',
  'service',
  'account',
  'chart',
  'com',
  'io',
  'org',
  'k8s',
  'kubernetes',
  'x-k8s',
  'sigs',
  'example',
  'controller',
  'daemonset',
  'latest',
]);

const words = (s: string) =>
  s
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 3 && !COMMON.has(w));

/** The drivers a service account serves (empty for other subjects). */
export function servedDrivers(ctx: AnalysisContext, sa: SubjectRef): string[] {
  return [...knownServedDrivers(ctx, sa)];
}

// Asked by several fixes and by each fix's needs about the same accounts; each answer reads every pod.
const knownServedDrivers = memoPerSubject((ctx, sa): readonly string[] => (sa.kind === 'ServiceAccount' ? driversOf(ctx, sa) : []));

const slicesByNode = new WeakMap<AnalysisContext, Map<string, string[]>>();

/** The drivers of the ResourceSlices on a node. */
function driversOnNode(ctx: AnalysisContext, node: string): string[] {
  let byNode = slicesByNode.get(ctx);
  if (!byNode) {
    slicesByNode.set(ctx, (byNode = new Map()));
    for (const s of ctx.state.resourceSlices) {
      if (!s.spec.nodeName) continue;
      const list = byNode.get(s.spec.nodeName);
      if (!list) byNode.set(s.spec.nodeName, [s.spec.driver]);
      else if (!list.includes(s.spec.driver)) list.push(s.spec.driver);
    }
  }
  return byNode.get(node) ?? [];
}

function driversOf(ctx: AnalysisContext, sa: SubjectRef): string[] {
  const pods = ctx.podsOfServiceAccount(sa.namespace ?? '', sa.name);
  // A DaemonSet account has a pod per node (10,000 on the bench cluster), all with the same mounts,
  // arguments, owner, containers and images: each distinct text is read once, in plain loops.
  const paths = new Set<string>();
  const args = new Set<string>();
  const named = new Set<string>();
  const name = (seen: Set<string>, text: string, pattern: RegExp, second?: RegExp) => {
    if (seen.has(text)) return;
    seen.add(text);
    const hit = pattern.exec(text) ?? second?.exec(text);
    if (hit) named.add(hit[1]);
  };
  for (const pod of pods) {
    for (const m of mountedHostPaths(pod)) name(paths, m.path, PLUGIN_DIR, REGISTRATION);
    for (const containers of [pod.spec.containers, pod.spec.initContainers]) {
      for (const c of containers ?? []) {
        for (const a of c.command ?? []) name(args, a, ARGUMENT);
        for (const a of c.args ?? []) name(args, a, ARGUMENT);
      }
    }
  }
  if (named.size > 0) return [...named].sort();
  const nodes = new Set<string>();
  for (const p of pods) if (p.spec?.nodeName) nodes.add(p.spec.nodeName);
  const drivers = new Set<string>();
  for (const n of nodes) for (const d of driversOnNode(ctx, n)) drivers.add(d);
  const onNodes = [...drivers].sort();
  if (onNodes.length <= 1) return onNodes;
  const texts = new Set<string>([sa.namespace ?? '', sa.name]);
  for (const p of pods) {
    texts.add(ctx.ownerOf(p).name);
    for (const c of p.spec.containers ?? []) {
      texts.add(c.name);
      texts.add(c.image ?? '');
    }
  }
  const own = [...new Set([...texts].flatMap(words))];
  const scored = onNodes.map((d) => ({ d, score: words(d).filter((w) => own.some((o) => sameWord(w, o))).length }));
  // Two shared words (gpu.intel.com for intel-gpu-resource-driver) name a driver; one shared word only when no other driver shares one.
  const strong = scored.filter((s) => s.score >= 2).map((s) => s.d);
  if (strong.length > 0) return strong;
  const weak = scored.filter((s) => s.score === 1).map((s) => s.d);
  return weak.length === 1 ? weak : [];
}

/** The same word, or one containing the other (sriov in sriovnetwork, domain in compute-domains). */
function sameWord(a: string, b: string): boolean {
  return a === b || (Math.min(a.length, b.length) >= 4 && (a.includes(b) || b.includes(a)));
}
