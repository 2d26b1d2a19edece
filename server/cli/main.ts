import 'server-only';
import { processIO, type CommandIO } from './command-io';
import { UsageError } from './usage-error';
import { COMMAND_NAMES, type CommandName } from './command-names';
import { asksForHelp, COMMAND_HELP } from './command-help';
import { tuneHeapForOneShotAnalysis } from './one-shot-heap';

const HELP = `dra-posture: security posture of Kubernetes Dynamic Resource Allocation

Usage:
  dra-posture can-i VERB TYPE[.GROUP][/NAME] [--subresource S] [-n NS] --as USER [--as-group G]... [--as-user-extra k=v]...
                    [--impersonate-user U [--impersonate-group G]... [--impersonate-extra k=v]...] [--authorizers Node,RBAC] [-o json]
  dra-posture can-i VERB /PATH --as USER ...
  dra-posture can-i --batch FILE
  dra-posture who-can VERB TYPE[/NAME] [--subresource S] [-n NS | -A] [-o wide|json|yaml]
  dra-posture who-can --batch FILE
  dra-posture simulate -f MANIFEST|REQUEST [--verb create|update|patch|delete --old FILE] [--subresource S] --as USER ... [-o json|yaml]
  dra-posture simulate --batch FILE                               would these writes be accepted? (impersonation, authorization, admission)
  dra-posture report [-o markdown|json|html|sarif|junit] [--fail-on critical|high|medium|low|info] [--authorizers Node,RBAC] [--audit PATH]
                     [--node-restriction on|off] [--feature-gates A=true,B=false]...   state the API server's configuration
  dra-posture build-role --persona P [--driver D]... [-n NS] [--service-account NS/NAME | --user U | --group G]
                        [--rule "VERBS RESOURCE[.GROUP][/SUB] [NAMES] # why"]... [-o yaml|json] [--demo | --snapshot PATH]
  dra-posture build-role --from-audit PATH (--service-account NS/NAME | --user U) [-o yaml|json] [--demo | --snapshot PATH]
                        the least role covering what the identity did in the audit log (custom persona, validated)
  dra-posture export --out FILE [--key PRIVATE.pem] [--pdf] [--audit PATH]  compliance bundle (tar: report, objects, CSV, HTML, manifest)
  dra-posture verify FILE [--key PUBLIC.pem]                     exit 0 only if every digest (and the signature) holds
  dra-posture diff A B [-o json]                                 drift between two bundles (or stored snapshot ids)
  dra-posture audit-policy [--tenant-namespace NS]... [-o yaml|json]   the recommended audit policy for DRA
  dra-posture audit-policy --check POLICY.yaml                   exit 1 when the policy misses what AUDIT checks read
  dra-posture serve [--host 127.0.0.1] [--port 3000] [--demo | --snapshot PATH] [--audit PATH]
  dra-posture checks [-o table|json|yaml]                         the check catalogue: ID, severity, meaning, general fix
  dra-posture completion bash|zsh
  dra-posture COMMAND --help                                     usage and examples of one command
  dra-posture --version

Every command reads one cluster: --snapshot PATH (file or folder of kubectl -o json / YAML, or a compliance bundle), or --demo
(optional for build-role: with one, it validates the bundle and compares it with today's grants). --audit PATH adds what an
audit log (file or folder; JSON lines, EventList, .gz) shows identities did: AUDIT findings and an activity section.
Also a kubectl plugin: kubectl dra-posture COMMAND ...
Exit codes: can-i and simulate 0 = yes, 1 = no; who-can 0 = answered; report 3 = findings at or above --fail-on; verify 1 = not verified; diff 1 = changes; 2 = usage error or unreadable input.`;

type Command = (argv: string[], io: CommandIO) => Promise<number>;

const COMMANDS: Record<CommandName, () => Promise<Command>> = {
  'can-i': async () => (await import('./commands/can-i')).runCanI,
  'who-can': async () => (await import('./commands/who-can')).runWhoCan,
  simulate: async () => (await import('./commands/simulate')).runSimulate,
  report: async () => (await import('./commands/report')).runReport,
  serve: async () => (await import('./commands/serve')).runServe,
  'build-role': async () => (await import('./commands/build-role')).runBuildRole,
  export: async () => (await import('./commands/export')).runExport,
  verify: async () => (await import('./commands/verify')).runVerify,
  diff: async () => (await import('./commands/diff')).runDiff,
  'audit-policy': async () => (await import('./commands/audit-policy')).runAuditPolicy,
  checks: async () => (await import('./commands/checks')).runChecks,
  completion: async () => (await import('./commands/completion')).runCompletion,
};

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(HELP);
    return name ? 0 : 2;
  }
  if (name === '--version' || name === 'version') {
    io.out(`dra-posture ${await packageVersion()}`);
    return 0;
  }
  const load = (COMMAND_NAMES as readonly string[]).includes(name) ? COMMANDS[name as CommandName] : undefined;
  if (!load) {
    io.err(`dra-posture: unknown command "${name}" (try --help)`);
    return 2;
  }
  if (asksForHelp(rest)) {
    io.out(COMMAND_HELP[name] ?? HELP);
    return 0;
  }
  try {
    return await (
      await load()
    )(rest, io);
  } catch (e) {
    io.err(`dra-posture ${name}: ${errorMessage(e)}`);
    return e instanceof UsageError || isArgError(e) ? 2 : isInputError(e) ? 2 : 1;
  }
}

async function packageVersion(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  try {
    return (
      (JSON.parse(await readFile(join(process.env.DRA_POSTURE_ROOT ?? process.cwd(), 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown'
    );
  } catch {
    return 'unknown';
  }
}

function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message.split('\n')[0];
  return String(e);
}

// node:util parseArgs signals bad flags with these codes.
function isArgError(e: unknown): boolean {
  const code = (e as { code?: string })?.code ?? '';
  return code.startsWith('ERR_PARSE_ARGS');
}

function isInputError(e: unknown): boolean {
  return (e as Error)?.name === 'SnapshotError';
}

/**
 * Exits once stdout and stderr have flushed: writes to a pipe are asynchronous, and exiting at once
 * cut `report -o json | jq` off at the pipe's 64 KiB buffer.
 */
export function flushAndExit(code: number): void {
  let pending = 2;
  const done = () => {
    if (--pending === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}

const isEntry = process.argv[1] && /server[\\/]cli[\\/]main\.ts$/.test(process.argv[1]);
if (isEntry) {
  tuneHeapForOneShotAnalysis();
  main(process.argv.slice(2), processIO).then(flushAndExit, (e) => {
    process.stderr.write(`dra-posture: ${errorMessage(e)}\n`);
    flushAndExit(1);
  });
}
