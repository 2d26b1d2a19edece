import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseSource } from './current-cluster';

describe('chooseSource (server configuration only)', () => {
  const noKube = { HOME: mkdtempSync(join(tmpdir(), 'home-')), KUBECONFIG: '' };
  it('a snapshot path wins', () =>
    expect(chooseSource({ ...noKube, DRA_POSTURE_SNAPSHOT: '/x', DRA_POSTURE_KUBECONFIG: '/k' })).toEqual({ kind: 'snapshot', path: '/x' }));
  it('demo when asked for, even with a kubeconfig', () =>
    expect(chooseSource({ ...noKube, DRA_POSTURE_SOURCE: 'demo', DRA_POSTURE_KUBECONFIG: '/k' })).toEqual({ kind: 'demo' }));
  it('an explicit kubeconfig/context means live', () =>
    expect(chooseSource({ ...noKube, DRA_POSTURE_KUBECONFIG: '/k', DRA_POSTURE_CONTEXT: 'prod' })).toEqual({
      kind: 'live',
      kubeconfig: '/k',
      context: 'prod',
    }));
  it('a configured $KUBECONFIG means live with the current context', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kc-')), 'config');
    writeFileSync(file, 'apiVersion: v1\nkind: Config\n');
    const saved = process.env.KUBECONFIG;
    process.env.KUBECONFIG = file;
    try {
      expect(chooseSource({ HOME: noKube.HOME })).toEqual({ kind: 'live', kubeconfig: undefined, context: undefined });
    } finally {
      if (saved === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = saved;
    }
  });
});
