import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CHECK_LIST } from '@/lib/analysis/checks/registry';
import { SEVERITIES } from '@/lib/analysis/types';
import { CAPABILITIES } from '@/lib/analysis/capabilities';
import { runCli } from '../__fixtures__/run-cli';

describe('dra-posture checks', () => {
  it('-o json lists every registered check once, in registry order, with severity, description and fix', async () => {
    const { code, out } = await runCli('checks', '-o', 'json');
    expect(code).toBe(0);
    const list = JSON.parse(out) as {
      id: string;
      family: string;
      familyLabel: string;
      severity: string;
      title: string;
      description: string;
      remediation: string;
    }[];
    expect(list.map((c) => c.id)).toEqual(CHECK_LIST.map((c) => c.id));
    for (const c of list) {
      expect(SEVERITIES).toContain(c.severity);
      expect(c.id.startsWith(c.family)).toBe(true);
      expect(c.familyLabel).not.toBe('');
      expect(c.description.length).toBeGreaterThan(20);
      expect(c.remediation.length).toBeGreaterThan(20);
    }
  });

  it('-o yaml says the same as -o json; the table has one title line per check', async () => {
    const json = JSON.parse((await runCli('checks', '-o', 'json')).out);
    expect(parse((await runCli('checks', '-o', 'yaml')).out)).toEqual(json);
    const table = (await runCli('checks')).out.split('\n').filter((l) => /^[A-Z]+\d{3}\s/.test(l));
    expect(table.map((l) => l.split(/\s+/)[0])).toEqual(json.map((c: { id: string }) => c.id));
  });

  it('says which capabilities of the model each ID reports, so every capability is covered by some ID', async () => {
    const list = JSON.parse((await runCli('checks', '-o', 'json')).out) as { id: string; covers: { capability: string; expected: string }[] }[];
    const byId = new Map(list.map((c) => [c.id, c.covers.map((k) => k.capability)]));
    expect(byId.get('NODE001')).toEqual(['write-other-node-status']);
    expect(byId.get('DRA008')).toEqual(expect.arrayContaining(['write-pods', 'write-workload-controllers', 'mint-serviceaccount-tokens', 'write-crds']));
    expect(byId.get('DRA011')).toEqual(['write-devicetaintrules']);
    expect(new Set(list.flatMap((c) => c.covers.map((k) => k.capability))).size).toBe(CAPABILITIES.length);
    for (const c of list) for (const k of c.covers) expect(k.expected.length).toBeGreaterThan(5);
  });

  it('refuses an unknown format and stray arguments with exit 2', async () => {
    expect(await runCli('checks', '-o', 'xml')).toMatchObject({ code: 2, err: expect.stringContaining('-o must be one of table, json, yaml') });
    expect((await runCli('checks', 'DRA001')).code).toBe(2);
  });
});
