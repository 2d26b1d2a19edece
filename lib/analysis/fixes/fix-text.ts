import { manifestYaml, type YamlValue } from '@/lib/k8s/manifest-yaml';
import { describeRef } from '@/lib/k8s/refs';
import type { FixChange, IssueFix } from '@/lib/analysis/types';

// A structured fix as the remediation text people read and paste: the lead sentence, then each change
// as YAML a person applies (an RBAC merge patch as the object with its replaced list, which
// `kubectl apply` also accepts; a workload's or a namespace's patch as the `kubectl patch` command), or, when no change
// passes the engine's checks, why, with the check's general advice and no YAML.

const KUBECTL_RESOURCE: Record<string, string> = { DaemonSet: 'daemonset', Deployment: 'deployment', StatefulSet: 'statefulset' };

const RBAC_API = 'rbac.authorization.k8s.io/v1';

/** A change a person applies with kubectl patch (a workload's, a namespace's), not as an object. */
const isCommand = (c: FixChange) => c.action === 'patch' && (c.patchType === 'strategic' || c.apiVersion !== RBAC_API);

/** One change as a person applies it: a new object's or an RBAC object's YAML, or a kubectl patch command. */
export function changeText(c: FixChange): string {
  if (c.action === 'create') return `# ${c.why}\n${manifestYaml(c.object as YamlValue)}`;
  if (isCommand(c)) {
    const ns = c.target.namespace ? ` -n ${c.target.namespace}` : '';
    return `# ${describeRef(c.target)}: ${c.why}\nkubectl patch ${KUBECTL_RESOURCE[c.target.kind] ?? c.target.kind.toLowerCase()} ${c.target.name}${ns} --type ${c.patchType} -p '${JSON.stringify(c.patch)}'`;
  }
  const metadata = c.target.namespace ? { name: c.target.name, namespace: c.target.namespace } : { name: c.target.name };
  return `# ${describeRef(c.target)}: ${c.why}\n${manifestYaml({ apiVersion: c.apiVersion, kind: c.target.kind, metadata, ...c.patch } as YamlValue)}`;
}

/**
 * The fix as text. `shown`: at most that many changes are printed, for fixes of one object per
 * namespace (thousands on a large cluster); the rest are named by count and are in the fix's changes.
 */
export function fixText(fix: IssueFix, summary: string, general: string, shown = Infinity): string {
  if (fix.status === 'none') return `No safe automatic fix: ${fix.reason}. ${general}`;
  const lead = `${summary}; the engine applied this to a copy of the cluster and checked it${fix.reason ? `. Left to you: ${fix.reason}` : ''}:`;
  // YAML documents apart with ---, so the whole block applies with kubectl apply -f.
  let text = lead;
  let previousYaml = false;
  for (const c of fix.changes.slice(0, shown)) {
    const yaml = !isCommand(c);
    text += `${yaml && previousYaml ? '\n---' : ''}\n${changeText(c)}`;
    previousYaml = yaml;
  }
  const more = fix.changes.length - shown;
  if (more > 0)
    text += `\n# and ${more} more object${more === 1 ? '' : 's'} of the same form, one per namespace, each checked: the issue's fix.changes in the JSON report (report -o json) lists them all`;
  return text;
}
