// Playwright web server for the live browser tests: a real kube-apiserver (+ controllers) seeded with
// the demo manifests, and `next start` reading it through its kubeconfig. Stops both on SIGTERM/SIGINT
// or when the Next server exits.
//   node --import tsx e2e/ui/live-server.ts PORT
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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
    process.exit(code);
  })();
};

const seeded = await seedObjects(cp, readManifests(path.join(repoRoot, 'demo', 'manifests'))).catch(async (e) => {
  await cp.stop();
  throw e;
});
console.error(`[live-server] kube-apiserver ${cp.version} at ${cp.url}, ${seeded.created} demo objects`);

const next = spawn(process.execPath, [path.join(repoRoot, 'node_modules', 'next', 'dist', 'bin', 'next'), 'start', '-H', '127.0.0.1', '-p', String(port)], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: { ...process.env, DRA_POSTURE_KUBECONFIG: cp.kubeconfigPath, DRA_POSTURE_SNAPSHOT: '', DRA_POSTURE_SOURCE: '' },
});
next.on('exit', (code) => stop(code ?? 1));
process.on('SIGTERM', () => stop(0));
process.on('SIGINT', () => stop(0));
