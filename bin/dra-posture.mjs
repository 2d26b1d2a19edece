#!/usr/bin/env node
// Entry point of the `dra-posture` CLI: runs the compiled CLI (dist/cli, plain JavaScript) in this
// process, or for `report` and `export` in a child process tuned for one large analysis
// (analysis-process.mjs). In a checkout it (re)builds it first when it is missing or older than
// the sources, as `serve` builds the dashboard when there is none; an installed package ships the
// build.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runInAnalysisProcess, wantsAnalysisProcess } from './analysis-process.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist', 'cli', 'run.mjs');
const builder = join(root, 'scripts', 'build', 'build-cli.mjs');
process.env.DRA_POSTURE_ROOT ??= root;

if (existsSync(builder) && isStale()) {
  try {
    await (await import(pathToFileURL(builder).href)).buildCli();
  } catch (e) {
    console.error(`dra-posture: cannot build the CLI: ${e instanceof Error ? e.message.split('\n')[0] : e}`);
    process.exit(2);
  }
}
const args = process.argv.slice(2);
const code = wantsAnalysisProcess(args) ? await runInAnalysisProcess(fileURLToPath(import.meta.url), args) : undefined;
if (code !== undefined) process.exitCode = code;
else await import(pathToFileURL(built).href);

// A source file the build read (dist/cli/sources.json) newer than the build: a few hundred stat calls.
function isStale() {
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  let sources;
  try {
    sources = JSON.parse(readFileSync(join(root, 'dist', 'cli', 'sources.json'), 'utf8'));
  } catch {
    return true;
  }
  for (const file of sources) {
    const stat = statSync(join(root, file), { throwIfNoEntry: false });
    // A source that went away: its importer changed too, but rebuild to say so if it still imports it.
    if (!stat || stat.mtimeMs > builtAt) return true;
  }
  return false;
}
