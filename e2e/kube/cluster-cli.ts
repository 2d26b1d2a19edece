// `npm run cluster`: a local, real kube-apiserver (+ kube-controller-manager) for trying the
// dashboard against a live cluster.
//   node --import tsx e2e/kube/cluster-cli.ts [--empty] [--no-controllers] [--kubeconfig-out PATH] [--keep]
// Seeds the demo cluster (demo/manifests) unless --empty, prints `kubeconfig: <path>` on its own
// line (the admin kubeconfig; token auth, insecure-skip-tls-verify), and stays in the foreground
// until SIGINT/SIGTERM, then stops everything and deletes the temp dir (unless --keep).
// Then e.g.: node bin/dra-posture.mjs serve --kubeconfig <path>
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startControlPlane } from './control-plane';
import { readManifests, seedObjects } from './seed-manifests';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      empty: { type: 'boolean' },
      'no-controllers': { type: 'boolean' },
      'kubeconfig-out': { type: 'string' },
      keep: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log('usage: cluster-cli [--empty] [--no-controllers] [--kubeconfig-out PATH] [--keep]');
    return;
  }
  const t0 = Date.now();
  const cp = await startControlPlane({ controllers: !values['no-controllers'], keepDir: !!values.keep });
  let stopping: Promise<void> | undefined;
  const stop = (signal: string) => {
    stopping ??= (async () => {
      console.error(`\n${signal}: stopping the control plane ...`);
      await cp.stop();
      if (values['kubeconfig-out']) fs.rmSync(values['kubeconfig-out'], { force: true });
      console.error('stopped');
      process.exit(0);
    })();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  try {
    console.error(`kube-apiserver ${cp.version} at ${cp.url} ready in ${Date.now() - t0} ms`);
    if (!values.empty) {
      const t1 = Date.now();
      const r = await seedObjects(cp, readManifests(path.join(repoRoot, 'demo', 'manifests')));
      console.error(`seeded the demo cluster: ${r.created} objects in ${Date.now() - t1} ms`);
    }
    let kubeconfig = cp.kubeconfigPath;
    if (values['kubeconfig-out']) {
      kubeconfig = path.resolve(values['kubeconfig-out']);
      fs.copyFileSync(cp.kubeconfigPath, kubeconfig);
      fs.chmodSync(kubeconfig, 0o600);
    }
    console.log(`kubeconfig: ${kubeconfig}`);
    console.log(`server: ${cp.url}`);
    for (const [name, file] of Object.entries(cp.kubeconfigs)) if (name !== 'admin' && name !== 'kcm') console.log(`kubeconfig (${name}): ${file}`);
    console.error('press Ctrl-C to stop');
  } catch (e) {
    await cp.stop();
    throw e;
  }
  // Stay in the foreground until a signal arrives.
  setInterval(() => undefined, 1 << 30);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
