// Builds the dashboard for the packed package into dist/dashboard (`serve` runs it from an installed
// package, where there is no source to build from). Run by prepack after the CLI build.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT } from './build-cli.mjs';

/** Relative to the package root: next.config.js reads it from DRA_POSTURE_DIST_DIR. */
export const DASHBOARD_DIST_DIR = 'dist/dashboard';

export function buildDashboard() {
  const out = join(ROOT, DASHBOARD_DIST_DIR);
  rmSync(out, { recursive: true, force: true });
  const nextBin = createRequire(join(ROOT, 'package.json')).resolve('next/dist/bin/next');
  // next build points next-env.d.ts at its distDir's types, which are not kept: put the checkout's back.
  const nextEnv = join(ROOT, 'next-env.d.ts');
  const nextEnvBefore = existsSync(nextEnv) ? readFileSync(nextEnv, 'utf8') : undefined;
  const built = spawnSync(process.execPath, [nextBin, 'build'], {
    cwd: ROOT,
    env: { ...process.env, DRA_POSTURE_DIST_DIR: DASHBOARD_DIST_DIR, NEXT_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (nextEnvBefore !== undefined) writeFileSync(nextEnv, nextEnvBefore);
  if (built.status !== 0) {
    rmSync(out, { recursive: true, force: true });
    throw new Error(`next build failed (exit ${built.status})`);
  }
  // What `next start` does not read: the build cache, traces, source maps and file traces (a
  // quarter of the size).
  for (const name of ['cache', 'trace', 'trace-build', 'types', 'diagnostics']) rmSync(join(out, name), { recursive: true, force: true });
  removeFiles(join(out, 'server'), (name) => name.endsWith('.map') || name.endsWith('.nft.json'));
  replaceExternalLinks(join(out, 'node_modules'));
}

function removeFiles(dir, drop) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) removeFiles(path, drop);
    else if (drop(entry.name)) unlinkSync(path);
  }
}

/**
 * Next links each server-external package as <distDir>/node_modules/<name>-<hash> →
 * ../../node_modules/<name>. Installed, the package's dependencies are hoisted beside it, so the
 * link would point at nothing (and npm pack drops links). A two-line package of that name that
 * requires or imports <name> finds it wherever npm put it.
 */
function replaceExternalLinks(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      replaceExternalLinks(path);
      continue;
    }
    if (!lstatSync(path).isSymbolicLink()) continue;
    const target = readlinkSync(path).replace(/\\/g, '/');
    const name = target.slice(target.lastIndexOf('node_modules/') + 'node_modules/'.length);
    unlinkSync(path);
    mkdirSync(path);
    writeFileSync(join(path, 'package.json'), `${JSON.stringify({ private: true, exports: { import: './index.mjs', require: './index.cjs' } }, null, 2)}\n`);
    writeFileSync(join(path, 'index.cjs'), `module.exports = require(${JSON.stringify(name)});\n`);
    writeFileSync(
      join(path, 'index.mjs'),
      `export * from ${JSON.stringify(name)};\nimport * as all from ${JSON.stringify(name)};\nexport default all.default;\n`,
    );
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  buildDashboard();
}
