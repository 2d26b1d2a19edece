import { describe, expect, it } from 'vitest';
import type { Finding, Issue } from '@/lib/analysis/types';
import { CATALOG } from '@/lib/analysis/catalog';
import { csvCell, findingsCsvChunks, neutraliseCell } from './findings-csv';

describe('findings CSV', () => {
  it.each(['=HYPERLINK("http://x")', '+1+1', '-2', '@SUM(A1)', '\tcmd', '\rcmd'])('neutralises a cell starting with %j', (text) => {
    expect(neutraliseCell(text)).toBe(`'${text}`);
  });

  it('leaves ordinary cells alone and quotes separators', () => {
    expect(csvCell('tenant-a')).toBe('tenant-a');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=1,2')).toBe(`"'=1,2"`);
  });

  it('writes one row per finding with a hostile name neutralised, the fix taken from its issue', () => {
    const finding: Finding = {
      id: 'f1',
      check: 'DRA003',
      severity: 'high',
      issueId: 'issue-0',
      subjects: [],
      objects: [{ kind: 'Namespace', name: '@ns' }],
      evidence: [
        { type: 'note', text: '+one' },
        { type: 'note', text: 'two' },
      ],
    };
    const issue = { id: 'issue-0', remediation: '-fix' } as Issue;
    const csv = [...findingsCsvChunks({ findings: [finding], issues: [issue] })].join('');
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('id,check,severity,title,subjects,objects,message,evidence,remediation,issue');
    const title = CATALOG.DRA003.title;
    // The message describes the finding from its refs and evidence; only cells starting with a payload change.
    expect(lines[1]).toBe(`f1,DRA003,high,${csvCell(title)},,Namespace @ns,Namespace @ns: +one; two,"'+one\ntwo",'-fix,issue-0`);
  });
});
