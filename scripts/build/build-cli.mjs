// Compiles the CLI (server/cli) into plain JavaScript under dist/cli/, one chunk per command so
// `dra-posture help` loads none of them. Packages stay external: they are dependencies at run time.
import { build } from 'esbuild';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI_OUT = join(ROOT, 'dist', 'cli');
const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
const BUNDLED = new Set(['@kubernetes/client-node']);

// `import 'server-only'` marks server code for Next; outside Next it has no job, and its default
// export (without the react-server condition) throws, so the bundle gets an empty module instead.
const serverOnlyIsEmpty = {
  name: 'server-only-is-empty',
  setup(b) {
    b.onResolve({ filter: /^server-only$/ }, () => ({ path: 'server-only', namespace: 'empty' }));
    b.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

export async function buildCli() {
  const tmp = `${CLI_OUT}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await build({
    absWorkingDir: ROOT,
    entryPoints: { run: 'server/cli/run.ts' },
    outdir: tmp,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Packages stay external (they are dependencies), except the Kubernetes client: bundled, only
    // the parts the kubeconfig reader uses are parsed at start (importing the whole package costs
    // ~0.6 s, four times the whole question).
    external: Object.keys(pkg.dependencies).filter((d) => !BUNDLED.has(d)),
    banner: { js: "import { createRequire as __draCreateRequire } from 'node:module'; const require = __draCreateRequire(import.meta.url);" },
    conditions: ['react-server'],
    tsconfig: join(ROOT, 'tsconfig.json'),
    plugins: [serverOnlyIsEmpty],
    logLevel: 'warning',
    legalComments: 'none',
  });
  await writeFile(join(tmp, 'package.json'), '{ "type": "module" }\n');
  // Swap in whole so a concurrent run never sees half a build.
  await mkdir(dirname(CLI_OUT), { recursive: true });
  await rm(CLI_OUT, { recursive: true, force: true });
  await rename(tmp, CLI_OUT);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildCli();
}
