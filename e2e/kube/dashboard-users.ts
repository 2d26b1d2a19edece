// The dashboard's users on a test API server under `serve --auth kubernetes`: deploy/'s reviewer role
// for the dashboard's own identity and deploy/'s user roles bound to the token-file users
// (IDENTITIES): viewer → dra-posture-viewer, group platform-leads (approver) → dra-posture-approver,
// group auditors (auditor) → dra-posture-auditor; `nobody` gets nothing.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import type { ControlPlane } from './control-plane';
import { pathFor } from './seed-manifests';

type Obj = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } };

const deployDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'deploy');

function deployObjects(file: string): Obj[] {
  return parseAllDocuments(readFileSync(path.join(deployDir, file), 'utf8')).map((d) => d.toJS() as Obj);
}

export async function createAsAdmin(cp: ControlPlane, o: Obj): Promise<void> {
  const r = await cp.request('admin', pathFor(o), { method: 'POST', body: o });
  if (r.status !== 201) throw new Error(`create ${o.kind} ${o.metadata.name}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
}

export function clusterRoleBinding(name: string, role: string, subject: { kind: 'User' | 'Group'; name: string }): Obj {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', ...subject }],
  } as Obj;
}

export async function grantDashboardUsers(cp: ControlPlane): Promise<void> {
  const reviewer = deployObjects('10-rbac.yaml').find((o) => o.kind === 'ClusterRole' && o.metadata.name === 'dra-posture-reviewer');
  if (!reviewer) throw new Error('deploy/10-rbac.yaml has no ClusterRole dra-posture-reviewer');
  await createAsAdmin(cp, reviewer);
  for (const o of deployObjects('15-user-roles.yaml')) await createAsAdmin(cp, o);
  await createAsAdmin(cp, clusterRoleBinding('dashboard-reviews', 'dra-posture-reviewer', { kind: 'User', name: 'dra-posture-dashboard' }));
  await createAsAdmin(cp, clusterRoleBinding('viewers', 'dra-posture-viewer', { kind: 'User', name: 'viewer' }));
  await createAsAdmin(cp, clusterRoleBinding('approvers', 'dra-posture-approver', { kind: 'Group', name: 'platform-leads' }));
  await createAsAdmin(cp, clusterRoleBinding('auditors', 'dra-posture-auditor', { kind: 'Group', name: 'auditors' }));
}
