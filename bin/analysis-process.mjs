// The CLI commands that analyse a whole cluster in one go run in a Node process tuned for it:
// - A fixed 64 MiB semi-space (V8's young generation), where Node starts it small, grows it to at
//   most 16 MiB and shrinks it again as it likes. An analysis keeps answers for a while (per
//   namespace, per identity, per fix) and drops them: in a small young generation they live through
//   two scavenges, are copied twice and promoted, then die in the old one. On the diverse bench
//   cluster (`npm run bench -- --diverse`) the report's scavenges fell from ~480 to ~45 and its
//   time by ~0.5 s of ~8 s, for ~110 MiB more peak RSS (~980 MiB).
// - No more V8 helper threads than the cores beside the main thread (Node starts four): on the
//   bench's two cores the report took ~0.3 s less with one (five interleaved rounds each).
// - No full collection before the old generation holds 1 GiB. The analysis' heap only grows (the
//   diverse bench cluster's peaks at ~850 MiB, of which a full collection at the end found ~145 MiB
//   free), and V8 sets each next full collection from the heap at the last one: whether one fell in
//   the analysis (~250 ms of pause and marking) hung on when one had run during the load. With the
//   load's batches below 128 KiB one did, every time: the report was ~9.7 s; with this flag ~8.9 s
//   (median of six interleaved rounds). Past 1 GiB V8 collects as it always does (`export` still
//   peaks at ~1.5 GiB).
// A flag the user gives Node (on the command line or in NODE_OPTIONS) is kept, not overridden.
// All are set when the process starts, so this takes a process of its own: the command starts
// itself again with the flags. Other commands answer one question and start in tens of
// milliseconds: they keep Node's defaults. (What can be set once running, for every command, is set
// by server/cli/one-shot-heap.ts.)
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** Commands that load and analyse a whole cluster. */
const ANALYSIS_COMMANDS = ['report', 'export'];

const SEMI_SPACE_FLAGS = ['--min-semi-space-size=64', '--max-semi-space-size=64'];
const OLD_GENERATION_FLAG = '--initial-old-space-size=1024';

/** Node options of an analysing process on a machine of `cores` (the bench runs its report phases with them too). */
export function analysisNodeFlags(cores = availableParallelism()) {
  return [...SEMI_SPACE_FLAGS, `--v8-pool-size=${Math.min(4, Math.max(1, cores - 1))}`, OLD_GENERATION_FLAG];
}

/** A Node flag's name as V8 reads it (`--max_semi_space_size=8` and `--max-semi-space-size` are one). */
function flagName(arg) {
  return arg.split('=')[0].replaceAll('_', '-');
}

/** The names of the Node flags a process was given, on its command line or in NODE_OPTIONS. */
function givenFlagNames(execArgv, nodeOptions) {
  return new Set([...execArgv, ...nodeOptions.split(/\s+/)].map(flagName));
}

/** The analysis flags of a child of a process with these options: none the user has set already. */
export function childAnalysisFlags(execArgv = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? '', cores = availableParallelism()) {
  const given = givenFlagNames(execArgv, nodeOptions);
  // The initial heap size bounds the initial old generation as well.
  if (given.has('--initial-heap-size')) given.add('--initial-old-space-size');
  return analysisNodeFlags(cores).filter((flag) => !given.has(flagName(flag)));
}

/**
 * Whether `args` (the CLI's, command first) should run in an analysing process: not when this
 * process has a semi-space size already, the child's own flags or the user's (on the command line
 * or in NODE_OPTIONS), which are kept.
 */
export function wantsAnalysisProcess(args, execArgv = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? '') {
  if (!ANALYSIS_COMMANDS.includes(args[0])) return false;
  const given = givenFlagNames(execArgv, nodeOptions);
  return !given.has('--min-semi-space-size') && !given.has('--max-semi-space-size');
}

/**
 * Runs `script args` in a child Node process with the analysis flags and this one's own options
 * (`--max-old-space-size` carries over; an inspector flag would fight the parent for its port), on
 * this process's terminal and pipes. Resolves with its exit code, or undefined when it could not
 * start (then nothing of it ran, and the caller runs the command itself). A signal that stops this
 * process is passed on (the child decides how to end), and a child killed by a signal ends this
 * process by the same signal.
 */
export function runInAnalysisProcess(script, args) {
  return new Promise((resolve) => {
    const options = process.execArgv.filter((arg) => !/^--(inspect|debug)/.test(arg));
    const child = spawn(process.execPath, [...options, ...childAnalysisFlags(), script, ...args], { stdio: 'inherit' });
    const forward = (signal) => child.kill(signal);
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    const stopForwarding = () => {
      for (const s of signals) process.off(s, forward);
    };
    for (const signal of signals) process.on(signal, forward);
    child.once('error', () => {
      // Only a child that never started ends here; a failed kill leaves it running to its exit.
      if (child.pid !== undefined) return;
      stopForwarding();
      resolve(undefined);
    });
    child.once('exit', (code, signal) => {
      stopForwarding();
      if (signal) {
        process.kill(process.pid, signal);
        return;
      }
      resolve(code ?? 1);
    });
  });
}
