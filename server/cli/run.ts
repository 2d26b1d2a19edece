import 'server-only';
import { processIO } from './command-io';
import { flushAndExit, main } from './main';
import { tuneHeapForOneShotAnalysis } from './one-shot-heap';

// Entry of the compiled CLI (dist/cli/run.mjs): main.ts only runs itself when started as a .ts file.

// A reader that stops early (`| head`) is not an error of ours.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});

// A command reads one cluster, analyses it once and exits (serve starts the dashboard in a process of its own): one-shot-heap.ts.
tuneHeapForOneShotAnalysis();
main(process.argv.slice(2), processIO).then(flushAndExit, (e: unknown) => {
  process.stderr.write(`dra-posture: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}\n`);
  flushAndExit(1);
});
