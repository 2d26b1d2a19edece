import { describe, expect, it } from 'vitest';
import { simulateRequestKey } from './simulate-request-key';

describe('simulateRequestKey', () => {
  it('names the row and question an address asks to simulate, whatever else it carries', () => {
    const a = new URLSearchParams('mode=who-can&verb=update&resource=resourceclaims%2Fbinding&simKind=ServiceAccount&simName=batch&simNamespace=tenant-b');
    const b = new URLSearchParams(
      'simNamespace=tenant-b&simName=batch&simKind=ServiceAccount&resource=resourceclaims%2Fbinding&verb=update&mode=who-can&q=filter',
    );
    expect(simulateRequestKey(a)).toBe(simulateRequestKey(b));
    expect(simulateRequestKey(a)).toContain('simName=batch');
    // Another subject or another question is another write.
    expect(simulateRequestKey(new URLSearchParams(a.toString().replace('batch', 'other')))).not.toBe(simulateRequestKey(a));
    expect(simulateRequestKey(new URLSearchParams(a.toString().replace('update', 'patch')))).not.toBe(simulateRequestKey(a));
    // A question without a row's subject asks for no write.
    expect(simulateRequestKey(new URLSearchParams('mode=who-can&verb=update&resource=pods'))).toBe('');
  });
});
