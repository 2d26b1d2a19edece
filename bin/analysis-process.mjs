// The CLI commands that analyse a whole cluster in one go run in a Node process tuned for it:
// - A fixed 64 MiB semi-space (V8's young generation), where Node starts it small, grows it to at
//   most 16 MiB and shrinks it again as it likes. An analysis keeps answers for a while (per
//   namespace, per identity, per fix) and drops them: in a small young generation they live through
//   two scavenges, are copied twice and promoted, then die in the old one. On the diverse bench
//   cluster (`npm run bench -- --diverse`) the report's scavenges fell from ~480 to ~45 and its
//   time by ~0.5 s of ~8 s, for ~110 MiB more peak RSS (~980 MiB).
// - No more V8 helper threads than the cores beside the main thread (Node starts four): on the
//   bench's two cores the report took ~0.3 s less with one (five interleaved rounds each).
// Both are set when the process starts, so this takes a process of its own: the command starts
// itself again with the flags. Other commands answer one question and start in tens of
// milliseconds: they keep Node's defaults. (What can be set once running, for every command, is set
// by server/cli/one-shot-heap.ts.)
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** Commands that load and analyse a whole cluster. */
const ANALYSIS_COMMANDS = ['report', 'export'];

const SEMI_SPACE_FLAGS = ['--min-semi-space-size=64', '--max-semi-space-size=64'];

/** Node options of an analysing process on a machine of `cores` (the bench runs its report phases with them too). */
export function analysisNodeFlags(cores = availableParallelism()) {
  return [...SEMI_SPACE_FLAGS, `--v8-pool-size=${Math.min(4, Math.max(1, cores - 1))}`];
}

/**
 * Whether `args` (the CLI's, command first) should run in an analysing process: not when this
 * process has a semi-space size already, the child's own flags or the user's (on the command line
 * or in NODE_OPTIONS), which are kept.
 */
export function wantsAnalysisProcess(args, execArgv = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? '') {
  if (!ANALYSIS_COMMANDS.includes(args[0])) return false;
  const sized = (arg) => /^--(min|max)[-_]semi[-_]space[-_]size(=|$)/.test(arg);
  return !execArgv.some(sized) && !nodeOptions.split(/\s+/).some(sized);
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
    const child = spawn(process.execPath, [...options, ...analysisNodeFlags(), script, ...args], { stdio: 'inherit' });
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
