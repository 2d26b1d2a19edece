import { describe, expect, it } from 'vitest';
import type { Finding } from '@/lib/report/types';
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

  it('writes one row per finding with a hostile name neutralised', () => {
    const finding: Finding = {
      id: 'f1',
      check: 'DRA003',
      severity: 'high',
      title: 'title',
      subjects: [{ kind: 'User', name: '=cmd|calc' }],
      objects: [],
      message: '@message',
      evidence: [
        { type: 'note', text: 'one' },
        { type: 'note', text: 'two' },
      ],
      remediation: '-fix',
    };
    const csv = [...findingsCsvChunks([finding])].join('');
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('id,check,severity,title,subjects,objects,message,evidence,remediation');
    // The subject cell starts with "User", so only the cells starting with the payload change.
    expect(lines[1]).toBe(`f1,DRA003,high,title,User =cmd|calc,,'@message,"one\ntwo",'-fix`);
  });
});
