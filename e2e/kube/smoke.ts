// End-to-end smoke check of the test control plane.
//   npx tsx e2e/kube/smoke.ts [--runtime-config=<value>] [--apiserver-arg=<flag>]... [--no-controllers] [--keep]
// Starts kube-apiserver (+ kube-controller-manager), creates a namespace, a
// resource.k8s.io/v1 ResourceClaim, SubjectAccessReviews for `viewer`, a Node
// + Pod with spec.nodeName and a pod-bound ServiceAccount token, prints the
// results and stops. Exits non-zero if a check fails.
import fs from 'node:fs';
import { startControlPlane, type ControlPlane } from './control-plane';

const argv = process.argv.slice(2);
const runtimeConfig = argv.find((a) => a.startsWith('--runtime-config='))?.slice('--runtime-config='.length);
const controllers = !argv.includes('--no-controllers');
const keep = argv.includes('--keep');
const extraApiserverArgs = argv.filter((a) => a.startsWith('--apiserver-arg=')).map((a) => a.slice('--apiserver-arg='.length));

let failures = 0;
function check(name: string, ok: boolean, detail: unknown): void {
  if (!ok) failures++;
  console.log(`${ok ? 'PASS' : 'FAIL'} ${name}: ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`);
}

function rssMiB(pid: number | undefined): string {
  if (!pid) return '-';
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? `${(Number(m[1]) / 1024).toFixed(0)} MiB` : '?';
  } catch {
    return '?';
  }
}

async function sar(cp: ControlPlane, user: string, groups: string[], attrs: Record<string, string>) {
  const r = await cp.request('admin', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: { user, groups, resourceAttributes: attrs },
    },
  });
  if (r.status !== 201) throw new Error(`SAR: HTTP ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.status as { allowed: boolean; reason?: string; denied?: boolean };
}

async function main(): Promise<void> {
  const t0 = Date.now();
  const cp = await startControlPlane({ runtimeConfig, controllers, keepDir: keep, extraApiserverArgs });
  try {
    console.log(`control plane ${cp.version} at ${cp.url} (dir ${cp.dir})`);
    console.log(
      `startup: total ${Date.now() - t0} ms, apiserver /readyz ${cp.timings.apiserverReadyMs} ms, controllers ${cp.timings.controllersReadyMs ?? '-'} ms`,
    );

    const groups = await cp.request('admin', '/apis/resource.k8s.io');
    const served = (groups.body?.versions ?? []).map((v: any) => v.groupVersion);
    console.log(`resource.k8s.io served: ${JSON.stringify(served)} preferred=${groups.body?.preferredVersion?.groupVersion}`);
    const hasV1 = served.includes('resource.k8s.io/v1');

    const ns = `smoke-${Date.now().toString(36)}`;
    const nsr = await cp.request('admin', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
    });
    check('create namespace', nsr.status === 201, `${ns} HTTP ${nsr.status}`);

    if (hasV1) {
      const rc = await cp.request('admin', `/apis/resource.k8s.io/v1/namespaces/${ns}/resourceclaims`, {
        body: {
          apiVersion: 'resource.k8s.io/v1',
          kind: 'ResourceClaim',
          metadata: { name: 'gpu-claim' },
          spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.example.com' } }] } },
        },
      });
      check('create ResourceClaim v1', rc.status === 201, `HTTP ${rc.status} uid=${rc.body?.metadata?.uid}`);
    } else {
      console.log('resource.k8s.io/v1 not served; skipping ResourceClaim');
    }

    const attrs = { group: 'resource.k8s.io', resource: 'resourceclaims', verb: 'list', namespace: ns };
    const before = await sar(cp, 'viewer', ['dra-posture:viewers'], attrs);
    check('SAR viewer list resourceclaims (no binding) denied', before.allowed === false, before);

    const crb = await cp.request('admin', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: `smoke-viewers-${ns}` },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'dra-posture:viewers' }],
      },
    });
    check('bind group dra-posture:viewers to view', crb.status === 201, `HTTP ${crb.status}`);
    if (controllers) {
      // `view` only has rules if the aggregation controller filled them in.
      const after = await sar(cp, 'viewer', ['dra-posture:viewers'], attrs);
      check('SAR viewer list resourceclaims (view, aggregated) allowed', after.allowed === true, after);
      const asViewer = await cp.request('viewer', `/apis/resource.k8s.io/v1/namespaces/${ns}/resourceclaims`);
      check('viewer token lists resourceclaims', asViewer.status === 200, `HTTP ${asViewer.status} items=${asViewer.body?.items?.length}`);
      const status = await sar(cp, 'viewer', ['dra-posture:viewers'], { ...attrs, verb: 'update', subresource: 'status', name: 'gpu-claim' });
      check('SAR viewer update resourceclaims/status denied', status.allowed === false, status);
    }
    const nsv = await cp.request('ns-viewer', `/api/v1/namespaces/${ns}/pods`);
    check('ns-viewer without RBAC is forbidden', nsv.status === 403, `HTTP ${nsv.status}`);

    // Node + Pod bound to it + pod-bound SA token => node-name extra.
    const node = await cp.request('admin', '/api/v1/nodes', {
      body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-a', labels: { 'kubernetes.io/hostname': 'node-a' } } },
    });
    check('create Node node-a', node.status === 201 || node.status === 409, `HTTP ${node.status}`);
    const sa = 'smoke-sa';
    const sar1 = await cp.request('admin', `/api/v1/namespaces/${ns}/serviceaccounts`, {
      body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: sa } },
    });
    check('create ServiceAccount', sar1.status === 201, `HTTP ${sar1.status}`);
    const pod = await cp.request('admin', `/api/v1/namespaces/${ns}/pods`, {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'pod-on-a' },
        spec: {
          nodeName: 'node-a',
          serviceAccountName: sa,
          containers: [{ name: 'c', image: 'registry.example/none:1' }],
          resourceClaims: [{ name: 'gpu', resourceClaimName: 'gpu-claim' }],
        },
      },
    });
    check(
      'create Pod with spec.nodeName (no scheduler/kubelet)',
      pod.status === 201,
      `HTTP ${pod.status} ${pod.status === 201 ? '' : JSON.stringify(pod.body)}`,
    );
    const podUid = pod.body?.metadata?.uid;

    const tr = await cp.request('admin', `/api/v1/namespaces/${ns}/serviceaccounts/${sa}/token`, {
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { expirationSeconds: 600, boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'pod-on-a', uid: podUid } },
      },
    });
    check('TokenRequest bound to pod', tr.status === 201, `HTTP ${tr.status}`);
    const review = await cp.request('admin', '/apis/authentication.k8s.io/v1/tokenreviews', {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: tr.body?.status?.token } },
    });
    const user = review.body?.status?.user;
    console.log(`TokenReview: authenticated=${review.body?.status?.authenticated} user=${JSON.stringify(user)}`);
    const nodeName = user?.extra?.['authentication.kubernetes.io/node-name'];
    check('token extra authentication.kubernetes.io/node-name', JSON.stringify(nodeName) === '["node-a"]', nodeName ?? 'missing');

    // Node authorizer: node-a may get the claim its pod references, node-b may not.
    const claimA = await sar(cp, 'system:node:node-a', ['system:nodes'], {
      group: 'resource.k8s.io',
      resource: 'resourceclaims',
      verb: 'get',
      namespace: ns,
      name: 'gpu-claim',
    });
    const claimB = await sar(cp, 'system:node:node-b', ['system:nodes'], {
      group: 'resource.k8s.io',
      resource: 'resourceclaims',
      verb: 'get',
      namespace: ns,
      name: 'gpu-claim',
    });
    check('Node authorizer: node-a get referenced claim allowed', claimA.allowed === true, claimA);
    check('Node authorizer: node-b get claim denied', claimB.allowed === false, claimB);
    const podAsNode = await cp.request('node-a', `/api/v1/namespaces/${ns}/pods/pod-on-a`);
    check('node-a token gets its pod', podAsNode.status === 200, `HTTP ${podAsNode.status}`);

    if (controllers) {
      // namespace + garbage-collector controllers: deleting the namespace finishes.
      // A pod with spec.nodeName is deleted gracefully and waits for a kubelet
      // that never comes, so force-delete it first.
      const del = await cp.request('admin', `/api/v1/namespaces/${ns}/pods/pod-on-a?gracePeriodSeconds=0`, { method: 'DELETE' });
      check('force-delete bound pod', del.status === 200, `HTTP ${del.status}`);
      await cp.request('admin', `/api/v1/namespaces/${ns}`, { method: 'DELETE' });
      const tDel = Date.now();
      let gone = false;
      while (Date.now() - tDel < 60_000) {
        const g = await cp.request('admin', `/api/v1/namespaces/${ns}`);
        if (g.status === 404) {
          gone = true;
          break;
        }
        await new Promise((r) => setTimeout(r, 250));
      }
      check('namespace deletion completes (namespace controller)', gone, `${Date.now() - tDel} ms`);
    }

    console.log(`RSS: apiserver+etcd ${rssMiB(cp.pids.apiserver)}, controller-manager ${rssMiB(cp.pids.controllerManager)}`);
  } finally {
    const ts = Date.now();
    await cp.stop();
    console.log(`stopped in ${Date.now() - ts} ms${keep ? ` (kept ${cp.dir})` : ''}`);
  }
  if (failures) {
    console.log(`${failures} check(s) FAILED`);
    process.exitCode = 1;
  } else {
    console.log('all checks passed');
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
