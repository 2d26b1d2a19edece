import { describe, expect, it } from 'vitest';
import { aggregateClusterRoles } from './aggregate-cluster-roles';
import { createAuthzEngine } from './authz-engine';
import { clusterRole, crb, res, stateOf, User, user } from './__fixtures__/builders';

const view = { verbs: ['get'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims'] };
const edit = { verbs: ['create'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims'] };
const stale = { verbs: ['*'], apiGroups: ['*'], resources: ['*'] };

// authz-semantics.md §4: the controller's steady state.
const roles = [
  clusterRole('view', [stale], { aggregate: [{ matchLabels: { 'rbac.example.com/aggregate-to-view': 'true' } }] }),
  clusterRole('edit', null, { aggregate: [{ matchLabels: { 'rbac.example.com/aggregate-to-edit': 'true' } }] }),
  clusterRole('view-part', [view], { labels: { 'rbac.example.com/aggregate-to-view': 'true' } }),
  clusterRole('edit-part', [edit], { labels: { 'rbac.example.com/aggregate-to-edit': 'true' } }),
  clusterRole('view-into-edit', [view, view], { labels: { 'rbac.example.com/aggregate-to-edit': 'true' } }),
  clusterRole('not-in', [{ verbs: ['delete'], apiGroups: ['*'], resources: ['*'] }], { labels: { other: 'x' } }),
  clusterRole('all', null, { aggregate: [{}] }),
];

describe('ClusterRole aggregation', () => {
  const result = aggregateClusterRoles(roles);

  it('replaces stored rules of an aggregated role with the selected roles’ rules', () => {
    expect(result.rules.get('view')!.map((r) => r.rule)).toEqual([view]);
    expect(result.rules.get('view')![0].from).toBe('view-part');
    expect(result.notes.some((n) => n.includes('"view"'))).toBe(true);
  });

  it('appends selected roles sorted by name and drops duplicate rules', () => {
    // edit-part < view-into-edit by name; view-into-edit repeats `view` twice: kept once.
    expect(result.rules.get('edit')!.map((r) => r.rule)).toEqual([edit, view]);
  });

  it('an empty selector selects every ClusterRole except itself, with nested results', () => {
    const all = result.rules.get('all')!.map((r) => r.rule);
    expect(all).toContainEqual({ verbs: ['delete'], apiGroups: ['*'], resources: ['*'] });
    expect(all).toContainEqual(edit);
    expect(all).not.toContainEqual(stale);
  });

  it('the authorizer uses the aggregated rules, not the stored ones', () => {
    const engine = createAuthzEngine(stateOf({ clusterRoles: roles, clusterRoleBindings: [crb('v', { kind: 'ClusterRole', name: 'view' }, [User('v')])] }));
    expect(engine.authorize({ user: user('v'), resource: res('get', 'resource.k8s.io', 'resourceclaims', { namespace: 'n', name: 'c' }) }).allowed).toBe(true);
    const d = engine.authorize({ user: user('v'), resource: res('delete', '', 'pods', { namespace: 'n', name: 'p' }) });
    expect(d.allowed).toBe(false);
    expect(
      engine.authorize({ user: user('v'), resource: res('get', 'resource.k8s.io', 'resourceclaims', { namespace: 'n', name: 'c' }) }).grant?.aggregatedFrom,
    ).toBe('view-part');
  });

  it('selectors are visited in order, each with its matches sorted by name', () => {
    const r = aggregateClusterRoles([
      clusterRole('agg', null, { aggregate: [{ matchLabels: { second: 'x' } }, { matchLabels: { first: 'x' } }] }),
      clusterRole('a-first', [edit], { labels: { first: 'x' } }),
      clusterRole('z-second', [view], { labels: { second: 'x' } }),
    ]);
    // z-second comes first because its selector is listed first, although "a-first" sorts earlier.
    expect(r.rules.get('agg')!.map((x) => x.rule)).toEqual([view, edit]);
  });

  it('NotIn also selects roles without the key', () => {
    const r = aggregateClusterRoles([
      clusterRole('agg', null, { aggregate: [{ matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['gold'] }] }] }),
      clusterRole('no-label', [view]),
      clusterRole('gold', [edit], { labels: { tier: 'gold' } }),
    ]);
    expect(r.rules.get('agg')!.map((x) => x.rule)).toEqual([view]);
  });

  it('a cycle keeps what the controller left in it: rules a cycle sustains survive, as they do on the server', () => {
    // a and b select each other. The controller once copied b's own `edit` rule into a, then
    // replaced b's rules with a's, so `edit` now lives only in the cycle; no selected role owns it.
    const cycle = (storedA: object[] | null, storedB: object[] | null) =>
      aggregateClusterRoles([
        clusterRole('a', storedA as never, { labels: { ring: 'x' }, aggregate: [{ matchLabels: { ring: 'x' } }] }),
        clusterRole('b', storedB as never, { labels: { ring: 'x' }, aggregate: [{ matchLabels: { ring: 'x' } }] }),
        clusterRole('leaf', [view], { labels: { ring: 'x' } }),
      ]);
    const settled = cycle([edit, view], [edit, view]);
    expect(settled.rules.get('a')!.map((x) => x.rule)).toEqual([edit, view]);
    expect(settled.rules.get('b')!.map((x) => x.rule)).toEqual([edit, view]);
    expect(settled.notes).toEqual([]);
    // From empty stored rules nothing sustains `edit`: the cycle's answer depends on its history.
    const fresh = cycle(null, null);
    expect(fresh.rules.get('a')!.map((x) => x.rule)).toEqual([view]);
  });
});
