// Playwright web server for the sign-in tests: a real kube-apiserver whose token file has the
// dashboard's users (e2e/kube/dashboard-users.ts), and `next start` on the demo source with
// `--auth kubernetes` reviewing tokens and access there. The users' tokens are written to
// AUTH_TOKENS_FILE for the spec. Stops both on SIGTERM/SIGINT or when the Next server exits.
//   node --import tsx e2e/ui/auth-server.ts PORT
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startControlPlane } from '../kube/control-plane';
import { grantDashboardUsers } from '../kube/dashboard-users';
import { AUTH_TOKENS_FILE } from './servers';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port <= 0) {
  console.error('usage: auth-server.ts PORT');
  process.exit(2);
}

const cp = await startControlPlane({ controllers: false });
let stopping: Promise<void> | undefined;
const stop = (code: number) => {
  stopping ??= (async () => {
    if (next?.exitCode === null) next.kill('SIGTERM');
    await cp.stop();
    fs.rmSync(tokensFile, { force: true });
    process.exit(code);
  })();
};

await grantDashboardUsers(cp).catch(async (e) => {
  await cp.stop();
  throw e;
});
const tokensFile = path.join(repoRoot, AUTH_TOKENS_FILE);
fs.mkdirSync(path.dirname(tokensFile), { recursive: true });
fs.writeFileSync(tokensFile, JSON.stringify(cp.tokens), { mode: 0o600 });
console.error(`[auth-server] kube-apiserver ${cp.version} at ${cp.url}; dashboard users granted`);

const next = spawn(process.execPath, [path.join(repoRoot, 'node_modules', 'next', 'dist', 'bin', 'next'), 'start', '-H', '127.0.0.1', '-p', String(port)], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: {
    ...process.env,
    DRA_POSTURE_AUTH: 'kubernetes',
    DRA_POSTURE_AUTH_KUBECONFIG: cp.kubeconfigs.dashboard,
    DRA_POSTURE_SOURCE: 'demo',
    DRA_POSTURE_SNAPSHOT: '',
    DRA_POSTURE_KUBECONFIG: '',
  },
});
next.on('exit', (code) => stop(code ?? 1));
process.on('SIGTERM', () => stop(0));
process.on('SIGINT', () => stop(0));
