// Playwright web server for the live browser tests: a real kube-apiserver (+ controllers) seeded with
// the demo manifests, and `next start` reading it through its kubeconfig. Stops both on SIGTERM/SIGINT
// or when the Next server exits.
//   node --import tsx e2e/ui/live-server.ts PORT
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { startControlPlane } from '../kube/control-plane';
import { readManifests, seedObjects } from '../kube/seed-manifests';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port <= 0) {
  console.error('usage: live-server.ts PORT');
  process.exit(2);
}

const cp = await startControlPlane({});
let stopping: Promise<void> | undefined;
const stop = (code: number) => {
  stopping ??= (async () => {
    if (next.exitCode === null) next.kill('SIGTERM');
    await cp.stop();
    fs.rmSync(dir, { recursive: true, force: true });
    process.exit(code);
  })();
};

const seeded = await seedObjects(cp, readManifests(path.join(repoRoot, 'demo', 'manifests'))).catch(async (e) => {
  await cp.stop();
  throw e;
});
console.error(`[live-server] kube-apiserver ${cp.version} at ${cp.url}, ${seeded.created} demo objects`);

// The server's kubeconfig: the cluster's admin context, plus one whose API server is a closed port,
// for the source switcher's error path.
const kubeconfig = parse(fs.readFileSync(cp.kubeconfigPath, 'utf8'));
const user = kubeconfig.contexts[0].context.user;
kubeconfig.clusters.push({ name: 'unreachable', cluster: { server: 'https://127.0.0.1:9', 'insecure-skip-tls-verify': true } });
kubeconfig.contexts.push({ name: 'unreachable', context: { cluster: 'unreachable', user } });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dra-live-ui-'));
const kubeconfigPath = path.join(dir, 'kubeconfig');
fs.writeFileSync(kubeconfigPath, stringify(kubeconfig), { mode: 0o600 });

const next = spawn(process.execPath, [path.join(repoRoot, 'node_modules', 'next', 'dist', 'bin', 'next'), 'start', '-H', '127.0.0.1', '-p', String(port)], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: { ...process.env, DRA_POSTURE_KUBECONFIG: kubeconfigPath, DRA_POSTURE_SNAPSHOT: '', DRA_POSTURE_SOURCE: '' },
});
next.on('exit', (code) => stop(code ?? 1));
process.on('SIGTERM', () => stop(0));
process.on('SIGINT', () => stop(0));
