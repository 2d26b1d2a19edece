// `node --conditions=react-server --import tsx scripts/bench/audit-bench.ts [SIZE_MIB]`: writes a seeded
// synthetic audit log (JSON lines, default 1 GiB, a few malformed lines, one gzip-rotated part) and
// reads it in a fresh process in one pass, printing the elapsed time and the peak RSS of the reader
// against the target (< 500 MiB for 1 GiB of log).
import { execFileSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, statSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGzip } from 'node:zlib';
import { once } from 'node:events';
import { auditEvent, type EventInput } from '@/lib/audit/__fixtures__/events';
import { createRandom } from './prng';

const TARGET_RSS_MIB = 500;

function eventFor(rnd: ReturnType<typeof createRandom>, i: number, t0: number): EventInput {
  const node = `n-${rnd.int(500)}`;
  const ns = `tenant-${rnd.int(200)}`;
  const time = new Date(t0 + i * 7).toISOString();
  const id = `a${i.toString(16).padStart(12, '0')}-0000-4000-8000-000000000000`;
  const sa = (n: string, name: string) => ({
    user: `system:serviceaccount:${n}:${name}`,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${n}`, 'system:authenticated'],
  });
  const r = rnd.next();
  if (r < 0.35)
    return {
      ...sa('gpu-driver', 'kubelet-plugin'),
      node,
      verb: rnd.pick(['update', 'patch']),
      namespace: ns,
      name: `claim-${rnd.int(100000)}`,
      subresource: 'driver',
      decision: rnd.chance(0.02) ? 'forbid' : 'allow',
      time,
      id,
    };
  if (r < 0.55)
    return {
      user: `system:node:${node}`,
      groups: ['system:nodes', 'system:authenticated'],
      verb: rnd.pick(['get', 'list', 'watch', 'update']),
      group: '',
      resource: rnd.pick(['pods', 'nodes', 'configmaps']),
      namespace: ns,
      name: `obj-${rnd.int(10000)}`,
      time,
      id,
    };
  if (r < 0.7)
    return {
      user: 'system:kube-scheduler',
      groups: ['system:authenticated'],
      verb: 'update',
      namespace: ns,
      name: `claim-${rnd.int(100000)}`,
      subresource: 'binding',
      time,
      id,
    };
  if (r < 0.8)
    return {
      ...sa(ns, `app-${rnd.int(50)}`),
      node,
      verb: rnd.pick(['create', 'get', 'delete']),
      namespace: ns,
      name: `claim-${rnd.int(100000)}`,
      time,
      id,
      level: 'Request',
      requestObject: { spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.example.com', adminAccess: rnd.chance(0.001) } }] } } },
    };
  if (r < 0.9)
    return {
      ...sa('kube-system', 'reporter'),
      node,
      impersonate: `system:node:${rnd.chance(0.99) ? node : `n-${rnd.int(500)}`}`,
      verb: 'patch',
      group: '',
      resource: 'nodes',
      subresource: 'status',
      name: node,
      time,
      id,
    };
  if (r < 0.97)
    return {
      user: `user-${rnd.int(3000)}@example.com`,
      verb: rnd.pick(['get', 'list']),
      resource: rnd.pick(['resourceclaims', 'deviceclasses', 'resourceslices']),
      namespace: ns,
      time,
      id,
    };
  return {
    ...sa('gpu-driver', 'controller'),
    verb: rnd.pick(['create', 'update', 'delete']),
    resource: 'resourceslices',
    name: `${node}-gpu-${rnd.int(8)}`,
    time,
    id,
  };
}

async function writeStream(stream: NodeJS.WritableStream, text: string) {
  if (!stream.write(text)) await once(stream, 'drain');
}

async function generate(dir: string, bytes: number): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const rnd = createRandom(17);
  const t0 = Date.parse('2026-10-01T00:00:00Z');
  const plain = createWriteStream(join(dir, 'audit.log'));
  let written = 0;
  let i = 0;
  while (written < bytes) {
    let batch = '';
    for (let k = 0; k < 2000; k++, i++)
      batch += i % 500_000 === 499_999 ? '{"kind":"Event", truncated\n' : JSON.stringify(auditEvent(eventFor(rnd, i, t0))) + '\n';
    written += batch.length;
    await writeStream(plain, batch);
  }
  plain.end();
  await once(plain, 'finish');
  // A rotated, compressed part as logrotate leaves it.
  const gz = createGzip();
  const out = createWriteStream(join(dir, 'audit-2026-09-30T23-59-59.000.log.gz'));
  gz.pipe(out);
  for (let k = 0; k < 20_000; k++) await writeStream(gz, JSON.stringify(auditEvent(eventFor(rnd, i + k, t0 - 86_400_000))) + '\n');
  gz.end();
  await once(out, 'finish');
}

async function read(dir: string) {
  const { readAuditLog } = await import('@/server/audit/read-audit-log');
  const start = performance.now();
  const result = await readAuditLog(dir);
  const elapsed = performance.now() - start;
  const peak = process.resourceUsage().maxRSS * 1024;
  console.log(
    JSON.stringify({
      elapsedMs: Math.round(elapsed),
      peakRss: peak,
      events: result.activity.events,
      malformed: result.activity.malformed.count,
      identities: result.activity.identities.length,
      writeRows: result.activity.writes.length,
      alerts: result.alerts.length,
    }),
  );
}

async function main() {
  const [mode, arg] = process.argv.slice(2);
  if (mode === 'read') return read(arg);
  const sizeMiB = Number(mode ?? 1024);
  const dir = join(tmpdir(), `dra-posture-audit-bench-${sizeMiB}`);
  const logFile = join(dir, 'audit.log');
  if (!existsSync(logFile) || statSync(logFile).size < sizeMiB * 1024 * 1024) {
    const t = performance.now();
    await generate(dir, sizeMiB * 1024 * 1024);
    console.log(`generated ${dir} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  const total = readdirSync(dir).reduce((n, f) => n + statSync(join(dir, f)).size, 0);
  const out = execFileSync(process.execPath, ['--conditions=react-server', '--import', 'tsx', fileURLToPath(import.meta.url), 'read', dir], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const r = JSON.parse(out.trim().split('\n').pop()!) as {
    elapsedMs: number;
    peakRss: number;
    events: number;
    malformed: number;
    identities: number;
    writeRows: number;
    alerts: number;
  };
  const mib = (b: number) => (b / 1024 / 1024).toFixed(0);
  const ok = r.peakRss < TARGET_RSS_MIB * 1024 * 1024;
  console.log(
    `audit log read: ${mib(total)} MiB in ${(r.elapsedMs / 1000).toFixed(1)} s (${(total / 1024 / 1024 / (r.elapsedMs / 1000)).toFixed(0)} MiB/s), ${r.events} events, ${r.malformed} malformed, ${r.identities} identities, ${r.writeRows} write rows, ${r.alerts} alerts`,
  );
  console.log(`peak RSS ${mib(r.peakRss)} MiB (target < ${TARGET_RSS_MIB} MiB): ${ok ? 'PASS' : 'FAIL'}`);
  if (!ok) process.exitCode = 1;
}

void main();
