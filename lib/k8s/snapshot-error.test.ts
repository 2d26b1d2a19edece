import { describe, expect, it, vi } from 'vitest';

import { SnapshotError, isSnapshotError } from './snapshot-error';

describe('SnapshotError', () => {
  it.each([
    [
      { file: 'snapshot.yaml', document: 2, object: 'ClusterRole "x"', path: 'rules[0].verbs' },
      'snapshot.yaml: document 3 (ClusterRole "x"): rules[0].verbs: expected an array of strings',
    ],
    [
      { file: 'dump.json', document: 0, item: 41, object: 'Pod "ns/p"', path: 'spec.containers[2].securityContext.privileged' },
      'dump.json: document 1, item 42 (Pod "ns/p"): spec.containers[2].securityContext.privileged: expected an array of strings',
    ],
    [{ file: 'bad.yaml', document: 1, line: 7 }, 'bad.yaml: document 2, line 7: expected an array of strings'],
    [{ path: 'metadata.name' }, 'metadata.name: expected an array of strings'],
    [{}, 'expected an array of strings'],
    [{ document: 0 }, 'document 1: expected an array of strings'],
  ])('formats %j', (location, message) => {
    const error = new SnapshotError('expected an array of strings', location);
    expect(error.message).toBe(message);
    expect(error.toString()).toBe(message);
    expect(error.reason).toBe('expected an array of strings');
    expect(error.code).toBe('invalid_snapshot');
    expect(isSnapshotError(error)).toBe(true);
  });

  it('locate fills only what is missing and rewrites the message', () => {
    const error = new SnapshotError('forbidden key', { path: 'metadata.labels' });
    error.locate({ file: 'a.json', document: 4, path: 'ignored', object: 'Pod "p"' });
    expect([error.file, error.document, error.path, error.message]).toEqual([
      'a.json',
      4,
      'metadata.labels',
      'a.json: document 5 (Pod "p"): metadata.labels: forbidden key',
    ]);
  });

  it('is an Error with a name and keeps its code', () => {
    const error = new SnapshotError('too big', {}, 'too_large');
    expect(error).toBeInstanceOf(Error);
    expect([error.name, error.code]).toEqual(['SnapshotError', 'too_large']);
    expect(isSnapshotError(new Error('x'))).toBe(false);
  });
});

describe('isSnapshotError', () => {
  it("recognises another bundle chunk's copy of the class, and nothing else", async () => {
    // A second module instance stands for the same class bundled into another server chunk.
    vi.resetModules();
    const copy = await import('./snapshot-error');
    expect(copy.SnapshotError).not.toBe(SnapshotError);
    const foreign = new copy.SnapshotError('bad', { file: 'f.json' });
    expect(foreign instanceof SnapshotError).toBe(false);
    expect(isSnapshotError(foreign)).toBe(true);
    expect(isSnapshotError(new Error('bad'))).toBe(false);
    expect(isSnapshotError({ name: 'SnapshotError', code: 'invalid_snapshot', reason: 'x' })).toBe(false);
  });
});
