import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { credentialsStamp } from './credentials-stamp';

describe('credentialsStamp', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stamp-'));
  const file = join(dir, 'config');

  it('changes when the kubeconfig file changes or disappears, and only then', () => {
    writeFileSync(file, 'token: a\n');
    const a = credentialsStamp(file);
    expect(credentialsStamp(file)).toBe(a);
    writeFileSync(file, 'token: b\n');
    const b = credentialsStamp(file);
    expect(b).not.toBe(a);
    rmSync(file);
    expect(credentialsStamp(file)).not.toBe(b);
  });

  it('without an explicit path, follows $KUBECONFIG', () => {
    const other = join(dir, 'other');
    writeFileSync(other, 'token: x\n');
    const before = credentialsStamp(undefined, { KUBECONFIG: other });
    writeFileSync(other, 'token: y\n');
    expect(credentialsStamp(undefined, { KUBECONFIG: other })).not.toBe(before);
  });
});
