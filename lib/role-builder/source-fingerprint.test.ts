import { describe, expect, it } from 'vitest';
import { loadDemo } from '@/server/sources/demo-source';
import { sourceFingerprint } from './source-fingerprint';

describe('sourceFingerprint', () => {
  it('is stable for the same content in any order and changes with any object change', async () => {
    const demo = await loadDemo();
    const fp = sourceFingerprint(demo);
    expect(fp).toMatch(/^[0-9a-f]{64}$/);
    expect(sourceFingerprint({ ...demo, pods: [...demo.pods].reverse(), warnings: ['ignored'] })).toBe(fp);
    const pod = demo.pods[0];
    expect(sourceFingerprint({ ...demo, pods: [{ ...pod, metadata: { ...pod.metadata, resourceVersion: '999999' } }, ...demo.pods.slice(1)] })).not.toBe(fp);
    expect(sourceFingerprint({ ...demo, roles: demo.roles.slice(1) })).not.toBe(fp);
    expect(sourceFingerprint({ ...demo, source: { ...demo.source, name: 'other' } })).not.toBe(fp);
  });
});
