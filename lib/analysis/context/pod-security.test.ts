import { describe, expect, it } from 'vitest';
import { privilegedNamespaceTest } from './pod-security';

const ns = (name: string, level?: string) => ({
  apiVersion: 'v1',
  kind: 'Namespace' as const,
  metadata: { name, labels: (level ? { 'pod-security.kubernetes.io/enforce': level } : {}) as Record<string, string> },
});

describe('privilegedNamespaceTest', () => {
  it('admits privileged pods unless enforce is baseline or restricted', () => {
    const admits = privilegedNamespaceTest({ namespaces: [ns('open'), ns('priv', 'privileged'), ns('base', 'baseline'), ns('strict', 'restricted')] });
    expect(['open', 'priv', 'base', 'strict', 'no-object'].map(admits)).toEqual([true, true, false, false, true]);
  });
});
