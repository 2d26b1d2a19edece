import { beforeAll, describe, expect, it } from 'vitest';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import type { Finding } from '@/lib/analysis/types';
import { loadDemo } from '@/server/sources/demo-source';
import { buildAnalysisContext } from '../context/build-analysis-context';
import { DEFAULT_SETTINGS } from '../settings';
import { CHECK_LIST, runChecks } from './registry';

// The bundled demo against demo/EXPECTED.md (§2) for the DRA, NODE, CLAIM and POD families: which
// subjects and objects each check reports. NODE002 follows the cluster-wide reading of R2.

const FAMILIES = /^(DRA|NODE|CLAIM|POD)/;
const key = (r: { kind: string; namespace?: string; name: string }) => `${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name}`;

let findings: Finding[] = [];
beforeAll(async () => {
  const state = await loadDemo();
  const ctx = buildAnalysisContext(state, createAuthzEngine(state), DEFAULT_SETTINGS);
  findings = runChecks(
    ctx,
    CHECK_LIST.filter((c) => FAMILIES.test(c.id)),
  );
});

const EXPECTED: Record<string, string[]> = {
  DRA001: ['ServiceAccount intel-gpu-resource-driver/intel-gpu-sa | ClusterRole cluster-admin, ClusterRoleBinding intel-driver-admin'],
  DRA002: ['Group gpu-ops | ClusterRole gpu-ops-wildcard, ClusterRoleBinding gpu-ops-wildcard'],
  DRA003: [
    'Group gpu-ops | ClusterRole gpu-ops-wildcard, ClusterRoleBinding gpu-ops-wildcard',
    'Group tenant-b-admins | ClusterRole tenant-deviceclass-writer, ClusterRoleBinding tenant-b-deviceclass-writer',
  ],
  DRA004: [
    'ServiceAccount gpu-operator/dra-driver-nvidia-gpu-service-account-kubeletplugin | ClusterRole nv-status-writer, ClusterRoleBinding nv-status-writer',
  ],
  DRA005: [
    'Group gpu-ops | ClusterRole gpu-ops-wildcard, ClusterRoleBinding gpu-ops-wildcard',
    'ServiceAccount gpu-operator/dra-driver-nvidia-gpu-service-account-kubeletplugin | ClusterRole nv-status-writer, ClusterRoleBinding nv-status-writer',
  ],
  DRA006: [
    'ServiceAccount platform/gpu-health-monitor | ClusterRole gpu-health-monitor, ClusterRoleBinding gpu-health-monitor',
    'ServiceAccount tenant-a/queue-controller | ClusterRole tenant-claim-allocator, RoleBinding tenant-a/queue-controller-claim-allocator',
  ],
  DRA007: [
    'Group gpu-ops | ClusterRole gpu-ops-wildcard, ClusterRoleBinding gpu-ops-wildcard',
    'ServiceAccount tenant-b/batch-scheduler | ClusterRole custom-allocator, ClusterRoleBinding tenant-b-batch-scheduler',
  ],
  DRA008: [
    'ServiceAccount gpu-operator/compute-domain-daemon-service-account | ClusterRole compute-domain-daemon-role, ClusterRoleBinding compute-domain-daemon-role-binding',
    'ServiceAccount gpu-operator/dra-driver-nvidia-gpu-service-account-controller | Role gpu-operator/dra-driver-nvidia-gpu-role-controller, RoleBinding gpu-operator/dra-driver-nvidia-gpu-role-binding-controller',
    'ServiceAccount gpu-operator/gpu-operator | ClusterRole gpu-operator, ClusterRoleBinding gpu-operator',
    'ServiceAccount platform/gpu-health-monitor | ClusterRole gpu-health-monitor, ClusterRoleBinding gpu-health-monitor',
  ],
  DRA009: [
    'ServiceAccount dra-example-driver/dra-example-driver-service-account, ServiceAccount gpu-operator/dra-driver-nvidia-gpu-service-account-kubeletplugin | ClusterRole dra-driver-common, ClusterRoleBinding dra-driver-common',
  ],
  DRA011: ['Group gpu-ops | ClusterRole gpu-ops-wildcard, ClusterRoleBinding gpu-ops-wildcard'],
  DRA012: [
    'ServiceAccount gpu-operator/dra-driver-nvidia-gpu-service-account-kubeletplugin | ClusterRole dra-driver-common, ClusterRole dra-driver-nvidia-gpu-clusterrole-kubeletplugin, ClusterRoleBinding dra-driver-common, ClusterRoleBinding dra-driver-nvidia-gpu-clusterrole-binding-kubeletplugin',
  ],
  NODE001: [
    'Group system:nodes | Pod kube-system/kube-apiserver-cp-01',
    'ServiceAccount kube-system/intel-reporter | ClusterRole node-status-patch-role, ClusterRoleBinding intel-reporter-node-status',
  ],
  NODE002: ['Group support-engineers | ClusterRole support-impersonator, ClusterRoleBinding support-impersonator'],
  NODE003: [
    'ServiceAccount gpu-operator/dra-driver-nvidia-gpu-service-account-controller | ClusterRole dra-driver-nvidia-gpu-clusterrole-controller, ClusterRoleBinding dra-driver-nvidia-gpu-clusterrole-binding-controller-gpu-operator',
    'ServiceAccount gpu-operator/dra-driver-nvidia-gpu-service-account-kubeletplugin | ClusterRole dra-driver-nvidia-gpu-clusterrole-kubeletplugin, ClusterRoleBinding dra-driver-nvidia-gpu-clusterrole-binding-kubeletplugin',
    'ServiceAccount nrr-system/nrr-controller-manager | ClusterRole nrr-manager-role, ClusterRoleBinding nrr-manager-rolebinding',
  ],
  NODE004: ['Group system:nodes | ClusterRole node-token-audience-wildcard, ClusterRoleBinding node-token-audience-wildcard'],
  NODE005: [' | Pod kube-system/kube-apiserver-cp-01'],
  CLAIM001: [' | Namespace tenant-c'],
  CLAIM002: [' | ResourceClaim tenant-c/gpu-debug-gpus-5c8wq', ' | ResourceClaimTemplate tenant-c/debug-all'],
  CLAIM003: ['Group tenant-c-devs | Namespace tenant-c, Role tenant-c/self-ns-labeler, RoleBinding tenant-c/self-ns-labeler'],
  CLAIM004: [' | ValidatingAdmissionPolicy dra-claimtemplate-guard'],
  CLAIM005: [' | Namespace kube-system'],
  POD001: ['ServiceAccount gpu-operator/dra-driver-nvidia-gpu-service-account-kubeletplugin | DaemonSet gpu-operator/dra-driver-nvidia-gpu-kubelet-plugin'],
  POD002: [
    'ServiceAccount gpu-operator/dra-driver-nvidia-gpu-service-account-kubeletplugin | DaemonSet gpu-operator/dra-driver-nvidia-gpu-kubelet-plugin',
    'ServiceAccount intel-gpu-resource-driver/intel-gpu-sa | DaemonSet intel-gpu-resource-driver/intel-gpu-resource-driver-kubelet-plugin',
  ],
  POD003: [
    'ServiceAccount gpu-operator/compute-domain-daemon-service-account | DaemonSet gpu-operator/train-domain-imex, Container gpu-operator/DaemonSet/train-domain-imex/compute-domain-daemon',
    'ServiceAccount gpu-operator/dra-driver-nvidia-gpu-service-account-controller | Deployment gpu-operator/dra-driver-nvidia-gpu-controller, Container gpu-operator/Deployment/dra-driver-nvidia-gpu-controller/compute-domain',
    'ServiceAccount gpu-operator/dra-driver-nvidia-gpu-service-account-kubeletplugin | DaemonSet gpu-operator/dra-driver-nvidia-gpu-kubelet-plugin, Container gpu-operator/DaemonSet/dra-driver-nvidia-gpu-kubelet-plugin/compute-domains',
    'ServiceAccount gpu-operator/dra-driver-nvidia-gpu-service-account-kubeletplugin | DaemonSet gpu-operator/dra-driver-nvidia-gpu-kubelet-plugin, Container gpu-operator/DaemonSet/dra-driver-nvidia-gpu-kubelet-plugin/gpus',
    'ServiceAccount gpu-operator/dra-driver-nvidia-gpu-service-account-kubeletplugin | DaemonSet gpu-operator/dra-driver-nvidia-gpu-kubelet-plugin, Container gpu-operator/DaemonSet/dra-driver-nvidia-gpu-kubelet-plugin/init-container',
    'ServiceAccount gpu-operator/gpu-operator | Deployment gpu-operator/gpu-operator, Container gpu-operator/Deployment/gpu-operator/gpu-operator',
    'ServiceAccount intel-gpu-resource-driver/intel-gpu-sa | DaemonSet intel-gpu-resource-driver/intel-gpu-resource-driver-kubelet-plugin, Container intel-gpu-resource-driver/DaemonSet/intel-gpu-resource-driver-kubelet-plugin/kubelet-plugin',
    'ServiceAccount platform/gpu-health-monitor | Deployment platform/gpu-health-monitor, Container platform/Deployment/gpu-health-monitor/monitor',
    'ServiceAccount tenant-b/batch-scheduler | Deployment tenant-b/batch-scheduler, Container tenant-b/Deployment/batch-scheduler/scheduler',
  ],
  POD004: ['ServiceAccount tenant-b/batch-runner | Pod tenant-b/nvidia-smi-debug'],
};

describe('demo cluster (demo/EXPECTED.md §2)', () => {
  it('reports exactly the expected subjects and objects per check', () => {
    const got: Record<string, string[]> = {};
    for (const f of findings) (got[f.check] ??= []).push(`${f.subjects.map(key).join(', ')} | ${f.objects.map(key).join(', ')}`);
    expect(got).toEqual(EXPECTED);
  });
  it('has unique finding IDs', () => {
    expect(new Set(findings.map((f) => f.id)).size).toBe(findings.length);
  });
});
