import 'server-only';
import { parseArgs } from 'node:util';
import { buildBundle } from '@/lib/role-builder/build-bundle';
import { checkInput } from '@/lib/role-builder/check-input';
import { CustomRuleError, parseCustomRule } from '@/lib/role-builder/custom-rules';
import { isPersonaId } from '@/lib/role-builder/personas/registry';
import { renderBundleYaml } from '@/lib/role-builder/render-yaml';
import { reviewRole } from '@/lib/role-builder/review-role';
import { sha256Hex } from '@/lib/role-builder/sha256';
import { PERSONA_IDS, type BuilderIdentity, type BuildInput } from '@/lib/role-builder/types';
import { loadClusterFromFlags, SOURCE_OPTIONS } from '../load-cluster';
import { UsageError } from '../usage-error';
import type { CommandIO } from '../command-io';

const OPTIONS = {
  ...SOURCE_OPTIONS,
  persona: { type: 'string' },
  driver: { type: 'string', multiple: true },
  namespace: { type: 'string', short: 'n' },
  'service-account': { type: 'string' },
  user: { type: 'string' },
  group: { type: 'string' },
  rule: { type: 'string', multiple: true },
  output: { type: 'string', short: 'o' },
} as const;

function identityFrom(values: { 'service-account'?: string; user?: string; group?: string; namespace?: string }, persona: string): BuilderIdentity {
  const given = [values['service-account'], values.user, values.group].filter((v) => v !== undefined).length;
  if (given > 1) throw new UsageError('give one identity: --service-account NS/NAME, --user NAME or --group NAME');
  if (values.user !== undefined) return { kind: 'User', name: values.user };
  if (values.group !== undefined) return { kind: 'Group', name: values.group };
  if (values['service-account'] === undefined) return { kind: 'ServiceAccount', namespace: values.namespace ?? 'default', name: persona, create: true };
  const parts = values['service-account'].split('/');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '')
    throw new UsageError(`--service-account expects NAMESPACE/NAME (got "${values['service-account']}")`);
  return { kind: 'ServiceAccount', namespace: parts[0], name: parts[1], create: true };
}

/**
 * `dra-posture build-role --persona P [--driver D]... [--namespace N] [--service-account NS/NAME | --user U | --group G]
 * [--rule "VERBS RESOURCE[.GROUP][/SUB] [NAMES] # reason"]... [-o yaml|json] [--demo | --snapshot PATH | --kubeconfig F]`:
 * the least-privilege bundle the Role builder page shows. With a cluster source, an existing service
 * account is not created again and -o json adds the engine's validation and the diff against today.
 */
export async function runBuildRole(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  if (positionals.length > 0) throw new UsageError(`unexpected arguments: ${positionals.join(' ')}`);
  const output = values.output ?? 'yaml';
  if (output !== 'yaml' && output !== 'json') throw new UsageError(`-o must be yaml or json (got "${output}")`);
  const persona = values.persona;
  if (persona === undefined) throw new UsageError(`--persona is required (one of ${PERSONA_IDS.join(', ')})`);
  if (!isPersonaId(persona)) throw new UsageError(`unknown persona "${persona}" (one of ${PERSONA_IDS.join(', ')})`);
  let customRules;
  try {
    customRules = values.rule?.map((r, i) => parseCustomRule(r, `--rule #${i + 1}`));
  } catch (e) {
    if (e instanceof CustomRuleError) throw new UsageError(e.message);
    throw e;
  }
  const input: BuildInput = { persona, identity: identityFrom(values, persona), drivers: values.driver ?? [] };
  if (values.namespace !== undefined) input.namespace = values.namespace;
  if (customRules) input.customRules = customRules;
  const problems = checkInput(input);
  if (problems.length > 0) throw new UsageError(problems.join('; '));

  const hasSource = values.snapshot !== undefined || values.demo || values.kubeconfig !== undefined || values.context !== undefined;
  if (!hasSource) {
    const bundle = buildBundle(input);
    const yaml = renderBundleYaml(bundle);
    io.out(output === 'yaml' ? yaml : JSON.stringify({ bundle, yaml, yamlSha256: sha256Hex(yaml) }, null, 2));
    return 0;
  }
  const review = reviewRole(await loadClusterFromFlags(values), input);
  if (output === 'json') {
    io.out(JSON.stringify(review, null, 2));
  } else {
    io.out(review.yaml);
    const failed = [...review.validation.intended, ...review.validation.dangerous].filter((r) => !r.ok).length + review.validation.findings.length;
    io.err(
      failed === 0
        ? 'dra-posture build-role: validated against the cluster: intended operations allowed, dangerous ones refused, no findings'
        : `dra-posture build-role: ${failed} validation problem(s); see -o json`,
    );
  }
  return 0;
}
