import { describe, expect, it } from 'vitest';
import { clusterRole, crb, node, stateOf, User } from '@/lib/authz/__fixtures__/builders';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import type { PolicyRule } from '@/lib/k8s/types';
import { buildAnalysisContext } from '@/lib/analysis/context/build-analysis-context';
import { listNodeWriters } from '@/lib/analysis/node-writers/node-writers';
import { DEFAULT_SETTINGS } from '@/lib/analysis/settings';
import { attackPathFor } from './attack-paths';
import { ReachIndex } from './reach';

// An identity that may bind cluster-admin has full control (authz-semantics §5: a binding is allowed when the
// requester may `bind` its role); its attack path says so in requests a SubjectAccessReview can check.

const RBAC = 'rbac.authorization.k8s.io';
const ADMIN = clusterRole('cluster-admin', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);

function pathOfMallory(rules: PolicyRule[]) {
  const state = stateOf({
    nodes: [node('n1'), node('n2')],
    clusterRoles: [ADMIN, clusterRole('binder', rules)],
    clusterRoleBindings: [crb('binder', { kind: 'ClusterRole', name: 'binder' }, [User('mallory')])],
  });
  const ctx = buildAnalysisContext(state, createAuthzEngine(state), DEFAULT_SETTINGS);
  return attackPathFor(ctx, new ReachIndex(ctx, listNodeWriters(ctx)), { kind: 'User', name: 'mallory' });
}

describe('attack path of a cluster-admin binder', () => {
  const create: PolicyRule = { verbs: ['create'], apiGroups: [RBAC], resources: ['clusterrolebindings'] };
  const bind: PolicyRule = { verbs: ['bind'], apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: ['cluster-admin'] };

  it('create clusterrolebindings and bind cluster-admin: two checked requests, then full control', () => {
    const path = pathOfMallory([create, bind])!;
    expect(path.impact).toBe('bind ClusterRole cluster-admin to itself: full control of the cluster');
    expect(
      path.steps.map((s) => s.review && `${s.review.resourceAttributes.verb} ${s.review.resourceAttributes.resource}/${s.review.resourceAttributes.name}`),
    ).toEqual([undefined, 'create clusterrolebindings/', 'bind clusterroles/cluster-admin']);
    expect(path.steps.every((s, i) => i === 0 || s.evidence?.some((e) => e.type === 'grant'))).toBe(true);
  });

  it('either grant alone reaches nothing', () => {
    expect(pathOfMallory([bind])).toBeUndefined();
    expect(pathOfMallory([create])).toBeUndefined();
  });
});
