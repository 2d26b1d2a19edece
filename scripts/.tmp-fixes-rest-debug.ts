import { buildReportWithContext } from '../lib/report/build-report';
import { loadDemo } from '../server/sources/demo-source';
import { simulateWrite } from '../lib/authz/simulate-write';
const { context } = buildReportWithContext(await loadDemo());
const obj = { apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name: 'x', namespace: 'tenant-c' }, spec: { devices: { requests: [{ name: 'req', exactly: { deviceClassName: 'gpu.nvidia.com', adminAccess: true } }] } } };
const r = simulateWrite(context.engine, { user: { name: 'a', groups: ['system:masters'] }, attributes: { verb: 'create', group: 'resource.k8s.io', resource: 'resourceclaims', subresource: '', namespace: 'tenant-c', name: '' }, object: obj });
console.log(JSON.stringify(r, null, 1));
