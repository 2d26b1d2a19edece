// Compiles the CLI (server/cli) into plain JavaScript under dist/cli/, one chunk per command so
// `dra-posture help` loads none of them. Packages stay external: they are dependencies at run time.
import { build } from 'esbuild';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI_OUT = join(ROOT, 'dist', 'cli');
const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
const BUNDLED = new Set(['@kubernetes/client-node', 'yaml']);

// `import 'server-only'` marks server code for Next; outside Next it has no job, and its default
// export (without the react-server condition) throws, so the bundle gets an empty module instead.
const serverOnlyIsEmpty = {
  name: 'server-only-is-empty',
  setup(b) {
    b.onResolve({ filter: /^server-only$/ }, () => ({ path: 'server-only', namespace: 'empty' }));
    b.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

/**
 * esbuild options that compile TypeScript entry points of this repo into plain ES modules for Node, as
 * the CLI ships: the bench (scripts/bench/compiled-worker.ts) measures its phases in the same form.
 */
export function nodeBundleOptions(entryPoints, outdir) {
  return {
    absWorkingDir: ROOT,
    metafile: true,
    entryPoints,
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Packages stay external (they are dependencies), except two. The Kubernetes client, loaded
    // only for kubeconfigs with exec plugins, auth providers and the like: importing the package
    // costs ~0.6 s, bundled ~45 ms. And yaml, which every live question needs for the kubeconfig:
    // its ~80 files cost 20 ms to resolve and load, one bundled chunk 10 ms.
    external: Object.keys(pkg.dependencies).filter((d) => !BUNDLED.has(d)),
    banner: { js: "import { createRequire as __draCreateRequire } from 'node:module'; const require = __draCreateRequire(import.meta.url);" },
    conditions: ['react-server'],
    tsconfig: join(ROOT, 'tsconfig.json'),
    plugins: [serverOnlyIsEmpty],
    logLevel: 'warning',
    legalComments: 'none',
  };
}

export async function buildCli() {
  const tmp = `${CLI_OUT}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  // demo: also the build step that parses the demo once (below).
  const result = await build(nodeBundleOptions({ run: 'server/cli/run.ts', demo: 'server/sources/demo-source.ts' }, tmp));
  await writeFile(join(tmp, 'package.json'), '{ "type": "module" }\n');
  // The demo parsed once, with the parser just built (server/sources/parsed-demo.ts): a `--demo`
  // question then reads JSON instead of parsing YAML. Its files and folders count as sources below,
  // so editing, adding or removing a manifest rebuilds it (the loader ignores a stale one anyway).
  const { buildParsedDemo } = await import(pathToFileURL(join(tmp, 'demo.mjs')).href);
  const demoRead = (await buildParsedDemo(join(ROOT, 'demo'), join(tmp, 'demo-cluster.json'))) ?? [];
  const demoSources = demoRead.length > 0 ? ['demo', 'demo/manifests', ...demoRead.map((f) => relative(ROOT, f))] : [];
  // The sources this build read: bin/dra-posture.mjs rebuilds when one of them is newer than the
  // build (a file no source imports cannot change it), without walking the whole tree.
  const sources = [...Object.keys(result.metafile.inputs).filter((f) => !f.includes('node_modules/') && !f.includes(':')), ...demoSources];
  await writeFile(join(tmp, 'sources.json'), `${JSON.stringify(sources)}\n`);
  // Swap in whole so a concurrent run never sees half a build.
  await mkdir(dirname(CLI_OUT), { recursive: true });
  await rm(CLI_OUT, { recursive: true, force: true });
  await rename(tmp, CLI_OUT);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildCli();
}
