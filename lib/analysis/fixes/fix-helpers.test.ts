import { describe, expect, it } from 'vitest';
import { ruleAllowsResource } from '@/lib/authz/rule-matches';
import { res } from '@/lib/authz/__fixtures__/builders';
import type { PolicyRule } from '@/lib/k8s/types';
import { applyMergePatch, applyStrategicPatch } from './apply-patch';
import { subtractAccess } from './subtract-access';
import { ruleProblem, securityContextProblems } from './validate-objects';

// The pieces fixes are made of, each against the rule it follows (RFC 7386, strategic merge by
// container name, RBAC rule matching, the API server's and the kubelet's validation).

describe('securityContextProblems', () => {
  it('refuses allowPrivilegeEscalation false beside privileged or CAP_SYS_ADMIN, as the API server does', () => {
    expect(securityContextProblems({ privileged: true, allowPrivilegeEscalation: false }, undefined)).toEqual([
      'cannot set allowPrivilegeEscalation to false and privileged to true',
    ]);
    expect(securityContextProblems({ capabilities: { add: ['CAP_SYS_ADMIN'] }, allowPrivilegeEscalation: false }, undefined)).toHaveLength(1);
    expect(securityContextProblems({ privileged: true }, undefined)).toEqual([]);
  });
  it('refuses runAsNonRoot beside runAsUser 0, from the container or the pod, as the kubelet does', () => {
    expect(securityContextProblems({ runAsNonRoot: true }, { runAsUser: 0 })).toHaveLength(1);
    expect(securityContextProblems({ runAsNonRoot: true, runAsUser: 1000 }, { runAsUser: 0 })).toEqual([]);
    expect(securityContextProblems({ runAsUser: '<a non-zero UID>' as never }, undefined)).toEqual(['runAsUser: must be a non-negative integer']);
  });
});

describe('ruleProblem', () => {
  it('follows ValidatePolicyRule', () => {
    expect(ruleProblem({ verbs: [], apiGroups: [''], resources: ['pods'] }, false)).toBe('verbs: Required value');
    expect(ruleProblem({ verbs: ['get'], resources: ['pods'] }, false)).toBe('apiGroups: Required value');
    expect(ruleProblem({ verbs: ['get'], nonResourceURLs: ['/healthz'] }, true)).toMatch(/namespaced rules/);
    expect(ruleProblem({ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, true)).toBeUndefined();
  });
});

describe('subtractAccess', () => {
  const probes = ['get', 'update', 'patch', 'delete'].flatMap((verb) =>
    ['nodes', 'nodes/status', 'pods'].map((r) => res(verb, '', r.split('/')[0], { subresource: r.split('/')[1] ?? '', name: 'n' })),
  );
  const grants = (rules: PolicyRule[], a: ReturnType<typeof res>) => rules.some((r) => ruleAllowsResource(r, a));
  it('takes exactly the verbs on the resources out, leaving the rest of the rule', () => {
    const rule: PolicyRule = { apiGroups: ['', 'apps'], resources: ['nodes', 'nodes/status', 'pods'], verbs: ['*'] };
    const out = subtractAccess(rule, { group: '', resources: ['nodes'], verbs: ['update', 'patch'] });
    if (!('rules' in out)) throw new Error(out.cannot);
    for (const a of probes) {
      const removed = a.resource === 'nodes' && a.subresource === '' && (a.verb === 'update' || a.verb === 'patch');
      expect(grants(out.rules, a), `${a.verb} ${a.resource}/${a.subresource}`).toBe(!removed);
    }
  });
  it('cannot take a resource out of a wildcard outside resource.k8s.io', () => {
    expect(subtractAccess({ apiGroups: [''], resources: ['*'], verbs: ['update'] }, { group: '', resources: ['nodes'], verbs: ['update'] })).toHaveProperty(
      'cannot',
    );
  });
});

describe('patches', () => {
  it('a merge patch replaces lists and deletes on null (RFC 7386)', () => {
    expect(applyMergePatch({ rules: [1, 2], metadata: { labels: { a: '1', b: '2' } } }, { rules: [3], metadata: { labels: { a: null } } })).toEqual({
      rules: [3],
      metadata: { labels: { b: '2' } },
    });
  });
  it('a strategic patch merges containers by name and leaves the input alone', () => {
    const ds = { spec: { template: { spec: { containers: [{ name: 'a', image: 'x', securityContext: { privileged: true } }, { name: 'b' }] } } } };
    const out = applyStrategicPatch(ds, { spec: { template: { spec: { containers: [{ name: 'a', securityContext: { readOnlyRootFilesystem: true } }] } } } });
    expect(out.spec.template.spec.containers).toEqual([
      { name: 'a', image: 'x', securityContext: { privileged: true, readOnlyRootFilesystem: true } },
      { name: 'b' },
    ]);
    expect(ds.spec.template.spec.containers[0].securityContext).toEqual({ privileged: true });
  });

  it('a strategic patch merges volume mounts by mountPath (core/v1 patchMergeKey), not by the volume name', () => {
    // One volume mounted at two paths: a patch of one mount must leave the other alone.
    const mounts = [
      { name: 'plugins', mountPath: '/var/lib/kubelet/plugins' },
      { name: 'plugins', mountPath: '/var/lib/kubelet/plugins_registry' },
    ];
    const ds = { spec: { template: { spec: { containers: [{ name: 'a', volumeMounts: mounts }] } } } };
    const patch = {
      spec: { template: { spec: { containers: [{ name: 'a', volumeMounts: [{ mountPath: '/var/lib/kubelet/plugins_registry', readOnly: true }] }] } } },
    };
    expect(applyStrategicPatch(ds, patch).spec.template.spec.containers[0].volumeMounts).toEqual([
      { name: 'plugins', mountPath: '/var/lib/kubelet/plugins' },
      { name: 'plugins', mountPath: '/var/lib/kubelet/plugins_registry', readOnly: true },
    ]);
  });
});
