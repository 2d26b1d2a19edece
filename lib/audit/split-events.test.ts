import { describe, expect, it } from 'vitest';
import { createEventSplitter, type EventText } from './split-events';
import { auditEvent, jsonLines } from './__fixtures__/events';

function split(text: string, chunkSize: number, max?: number) {
  const events: EventText[] = [];
  const bad: { line: number; error: string }[] = [];
  const s = createEventSplitter({ event: (e) => events.push(e), malformed: (line, error) => bad.push({ line, error }) }, max);
  for (let i = 0; i < text.length; i += chunkSize) s.push(text.slice(i, i + chunkSize));
  s.end();
  return { events, bad };
}

const a = auditEvent({ verb: 'get', user: 'alice', name: 'x{y}"z', namespace: 'ns' });
const b = auditEvent({ verb: 'update', user: 'bob', subresource: 'driver', name: 'c', namespace: 'ns' });

describe('createEventSplitter', () => {
  for (const size of [1, 7, 4096]) {
    it(`splits JSON lines into events with their line numbers (chunks of ${size})`, () => {
      const { events, bad } = split(`\n${jsonLines([a, b])}\n${JSON.stringify(a)}`, size);
      expect(bad).toEqual([]);
      expect(events.map((e) => e.line)).toEqual([2, 3, 5]);
      expect(events.map((e) => (JSON.parse(e.text) as { verb: string }).verb)).toEqual(['get', 'update', 'get']);
    });

    it(`hands out the items of an EventList one by one (chunks of ${size})`, () => {
      const list = JSON.stringify({ kind: 'EventList', apiVersion: 'audit.k8s.io/v1', metadata: {}, items: [a, b, a] }, null, 2);
      const { events, bad } = split(list, size);
      expect(bad).toEqual([]);
      expect(events).toHaveLength(3);
      expect(events.map((e) => (JSON.parse(e.text) as { user: { username: string } }).user.username)).toEqual(['alice', 'bob', 'alice']);
      expect(events[1].line).toBeGreaterThan(events[0].line);
      expect(list.split('\n')[events[1].line - 1].trim()).toBe('{');
    });
  }

  it('reads a pretty-printed single event', () => {
    const { events } = split(JSON.stringify(a, null, 2), 5);
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0].text)).toEqual(a);
  });

  it('reports a line that is too long and goes on with the next', () => {
    const { events, bad } = split(`${JSON.stringify(a)}\n${'x'.repeat(5000)}\n${JSON.stringify(b)}\n`, 64, 2000);
    expect(bad).toEqual([{ line: 2, error: 'line longer than 2000 characters, skipped' }]);
    expect(events.map((e) => e.line)).toEqual([1, 3]);
  });

  it('reports stray text once per line, however many chunks it spans', () => {
    const { events, bad } = split(`${'x'.repeat(5000)}\n${JSON.stringify(a, null, 1)}\nzz\n`, 64);
    expect(bad).toEqual([
      { line: 1, error: 'unexpected "x" outside an object' },
      { line: JSON.stringify(a, null, 1).split('\n').length + 2, error: 'unexpected "z" outside an object' },
    ]);
    expect(events).toHaveLength(1);
  });

  it('reports a truncated EventList', () => {
    const list = JSON.stringify({ kind: 'EventList', items: [a, b] }, null, 1);
    const { events, bad } = split(list.slice(0, list.length - 40), 100);
    expect(events).toHaveLength(1);
    expect(bad[0].error).toMatch(/truncated/);
  });
});

// A 33 MB line once took 9.4 s (each chunk re-scanned the whole undecided line). The cost must grow
// with the size, not its square: compared as a ratio of two sizes (best of three runs each), never
// against a wall-clock budget. Linear work gives a ratio near 16, quadratic near 256.
describe('createEventSplitter on long lines', () => {
  const chunk = 'x'.repeat(64 * 1024);
  const shapes = {
    'a first line (format not yet known)': { head: '{"a":"', tail: '"}\n' },
    'a line after a JSON line': { head: `${JSON.stringify(a)}\n{"a":"`, tail: '"}\n' },
    'a string inside an EventList': { head: '{"kind":"EventList","items":[{"a":"', tail: '"}]}\n' },
  };

  function feed(shape: { head: string; tail: string }, mb: number) {
    const bad: string[] = [];
    const events: EventText[] = [];
    const s = createEventSplitter({ event: (e) => events.push(e), malformed: (_, error) => bad.push(error) });
    const start = performance.now();
    s.push(shape.head);
    for (let i = 0; i < mb * 16; i++) s.push(chunk);
    s.push(shape.tail);
    s.push(`${JSON.stringify(b)}\n`);
    s.end();
    return { ms: performance.now() - start, bad, events };
  }
  const best = (shape: { head: string; tail: string }, mb: number) => Math.min(...[0, 1, 2].map(() => feed(shape, mb).ms));

  for (const [name, shape] of Object.entries(shapes)) {
    it(`skips a 33 MB line in ${name}, reads the next, and grows linearly`, () => {
      const big = feed(shape, 33);
      expect(big.bad).toEqual([expect.stringMatching(/longer than 33554432 characters, skipped/)]);
      expect(big.events.map((e) => (JSON.parse(e.text) as { user: { username: string } }).user.username)).toContain('bob');
      const ratio = best(shape, 32) / Math.max(best(shape, 2), 0.5);
      expect(ratio).toBeLessThan(64);
    });
  }
});
