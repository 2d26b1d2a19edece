import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RoleReview } from '@/lib/role-builder/review-role';
import type { CommandIO } from '../command-io';
import { main } from '../main';

// `dra-posture build-role`: the reviewed golden YAML for the same input, JSON with validation, exit 2 on usage errors.

const GOLDEN = join(import.meta.dirname, '..', '..', '..', 'lib', 'role-builder', '__golden__');

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CommandIO = { out: (t) => void (out += t), err: (t) => void (err += `${t}\n`) };
  const code = await main(argv, io);
  return { code, out, err };
}

describe('dra-posture build-role', () => {
  it('prints the reviewed YAML of each persona for the golden inputs', async () => {
    const cases: [string, string[]][] = [
      [
        'node-local-driver',
        ['--persona', 'node-local-driver', '--driver', 'gpu.example.com', '--service-account', 'dra-example-driver/example-kubelet-plugin'],
      ],
      ['scheduler', ['--persona', 'scheduler', '--service-account', 'kube-system/custom-allocator']],
      ['tenant', ['--persona', 'tenant', '--service-account', 'tenant-a/batch-runner', '-o', 'yaml']],
      ['auditor', ['--persona', 'auditor', '--group', 'dra-auditors']],
      [
        'custom',
        [
          '--persona',
          'custom',
          '--user',
          'dana',
          '-n',
          'tenant-a',
          '--rule',
          'get,list,watch resourceclaims.resource.k8s.io # follow the team’s claims',
          '--rule',
          'get,list deviceclasses.resource.k8s.io # pick a class',
        ],
      ],
    ];
    for (const [persona, args] of cases) {
      const r = await run('build-role', ...args);
      expect(r.err, persona).toBe('');
      expect(r.code).toBe(0);
      expect(r.out, persona).toBe(readFileSync(join(GOLDEN, `${persona}.yaml`), 'utf8'));
    }
  });

  it('-o json with a cluster: the page’s review (validation and diff), an existing service account not created again', async () => {
    const r = await run(
      'build-role',
      '--persona',
      'node-local-driver',
      '--driver',
      'gpu.example.com',
      '--service-account',
      'dra-example-driver/dra-example-driver-service-account',
      '--demo',
      '-o',
      'json',
    );
    expect(r.code).toBe(0);
    const review = JSON.parse(r.out) as RoleReview;
    expect(review.identityExists).toBe(true);
    expect(review.bundle.objects.map((o) => o.object.kind)).toEqual([
      'ClusterRole',
      'ClusterRoleBinding',
      'ValidatingAdmissionPolicy',
      'ValidatingAdmissionPolicyBinding',
    ]);
    expect(review.validation.intended.every((o) => o.allowed)).toBe(true);
    expect(review.yamlSha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('usage errors exit 2 with one line', async () => {
    const cases: [string[], RegExp][] = [
      [['--persona', 'wizard'], /unknown persona "wizard"/],
      [[], /--persona is required/],
      [['--persona', 'node-local-driver'], /drivers: the node-local-driver persona needs at least one driver name/],
      [['--persona', 'multi-node-controller', '--service-account', 'ns/sa'], /needs at least one driver/],
      [['--persona', 'tenant', '--service-account', 'no-slash'], /--service-account expects NAMESPACE\/NAME \(got "no-slash"\)/],
      [['--persona', 'tenant', '--service-account', 'a/b/c'], /--service-account expects NAMESPACE\/NAME/],
      [['--persona', 'auditor', '--user', 'u', '--group', 'g'], /give one identity/],
      [['--persona', 'auditor', '-o', 'xml'], /-o must be yaml or json/],
      [['--persona', 'custom', '--user', 'u', '--rule', '* pods'], /--rule #1: wildcards/],
      [['--persona', 'node-readiness-reporter', '--user', 'u'], /needs a ServiceAccount/],
      [['--persona', 'auditor', '--bogus'], /bogus/],
    ];
    for (const [args, message] of cases) {
      const r = await run('build-role', ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).toMatch(message);
      expect(r.out).toBe('');
    }
  });
});
