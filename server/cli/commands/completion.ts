import 'server-only';
import { COMMAND_NAMES } from '../command-names';
import { IDENTITY_OPTIONS } from '../build-user';
import { CLUSTER_CONFIG_OPTIONS } from '../cluster-config-flags';
import { UsageError } from '../usage-error';
import type { CommandIO } from '../command-io';

const COMMANDS = [...COMMAND_NAMES, 'help'];
const SOURCE_FLAGS = ['--snapshot', '--demo', '--kubeconfig', '--context', '--max-snapshot-bytes'];
const CONFIG_FLAGS = Object.keys(CLUSTER_CONFIG_OPTIONS).map((f) => `--${f}`);
const TARGET_FLAGS = [
  '-n',
  '--namespace',
  '-A',
  '--all-namespaces',
  '--subresource',
  '--field-selector',
  '--label-selector',
  ...CONFIG_FLAGS,
  '-o',
  '--output',
];

const IDENTITY_FLAGS = Object.keys(IDENTITY_OPTIONS).map((f) => `--${f}`);

/** Flags each command takes, for completion (the parsers in commands/ are the authority). */
const FLAGS: Record<string, string[]> = {
  'can-i': [...SOURCE_FLAGS, ...TARGET_FLAGS, ...IDENTITY_FLAGS, '--batch', '-q', '--quiet'],
  'who-can': [...SOURCE_FLAGS, ...TARGET_FLAGS, '--batch'],
  simulate: [...SOURCE_FLAGS, '-f', '--filename', '--old', '--verb', '--subresource', ...IDENTITY_FLAGS, ...CONFIG_FLAGS, '--batch', '-o', '--output'],
  report: [...SOURCE_FLAGS, '-o', '--output', '--fail-on', ...CONFIG_FLAGS],
  'build-role': [...SOURCE_FLAGS, '--persona', '--driver', '-n', '--namespace', '--service-account', '--user', '--group', '--rule', '-o', '--output'],
  export: [...SOURCE_FLAGS, '--out', '--key', '--pdf', ...CONFIG_FLAGS],
  verify: ['--key'],
  diff: ['-o', '--output'],
  serve: ['--host', '--port', '--public-url', '--demo', '--snapshot', '--kubeconfig', '--context', '--rebuild', ...CONFIG_FLAGS],
  completion: [],
};

function bash(): string {
  const cases = Object.entries(FLAGS)
    .map(([cmd, flags]) => `    ${cmd}) flags="${[...flags, '--help'].join(' ')}" ;;`)
    .join('\n');
  return `# bash completion for dra-posture (source <(dra-posture completion bash))
_dra_posture() {
  local cur=\${COMP_WORDS[COMP_CWORD]} cmd=\${COMP_WORDS[1]} flags
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${COMMANDS.join(' ')} --version --help" -- "$cur"))
    return
  fi
  case "$cmd" in
${cases}
    completion) COMPREPLY=($(compgen -W "bash zsh" -- "$cur")); return ;;
    *) flags="" ;;
  esac
  if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$flags" -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi
}
complete -F _dra_posture dra-posture kubectl-dra_posture
`;
}

function zsh(): string {
  const cases = Object.entries(FLAGS)
    .map(([cmd, flags]) => `    ${cmd}) compadd -- ${[...flags, '--help'].join(' ')} ;;`)
    .join('\n');
  return `#compdef dra-posture kubectl-dra_posture
# zsh completion for dra-posture (dra-posture completion zsh > "\${fpath[1]}/_dra-posture")
_dra_posture() {
  if (( CURRENT == 2 )); then
    compadd -- ${COMMANDS.join(' ')} --version --help
    return
  fi
  if [[ "\${words[CURRENT]}" != -* ]]; then _files; return; fi
  case "\${words[2]}" in
${cases}
  esac
}
compdef _dra_posture dra-posture kubectl-dra_posture
`;
}

/** `dra-posture completion bash|zsh`: a completion script on stdout. */
export async function runCompletion(argv: string[], io: CommandIO): Promise<number> {
  const [shell, ...rest] = argv;
  if (rest.length > 0 || (shell !== 'bash' && shell !== 'zsh')) throw new UsageError('expected: dra-posture completion bash|zsh');
  io.out(shell === 'bash' ? bash() : zsh());
  return 0;
}
