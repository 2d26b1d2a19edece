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

  it('reports a truncated EventList', () => {
    const list = JSON.stringify({ kind: 'EventList', items: [a, b] }, null, 1);
    const { events, bad } = split(list.slice(0, list.length - 40), 100);
    expect(events).toHaveLength(1);
    expect(bad[0].error).toMatch(/truncated/);
  });
});
