import { describe, expect, it } from 'vitest';
import { fieldRequirementsFromSar, parseFieldSelector } from './field-selector';

describe('field selectors', () => {
  it.each([
    { raw: 'spec.nodeName=n1', want: [{ field: 'spec.nodeName', operator: '=', value: 'n1' }] },
    { raw: 'spec.nodeName==n1', want: [{ field: 'spec.nodeName', operator: '=', value: 'n1' }] },
    {
      raw: 'spec.nodeName!=n1,metadata.name=x',
      want: [
        { field: 'spec.nodeName', operator: '!=', value: 'n1' },
        { field: 'metadata.name', operator: '=', value: 'x' },
      ],
    },
    { raw: 'a=b\\,c', want: [{ field: 'a', operator: '=', value: 'b,c' }] },
    { raw: '', want: [] },
  ])('$raw', ({ raw, want }) => expect(parseFieldSelector(raw)).toEqual(want));
  it('rejects a term without operator', () => expect(() => parseFieldSelector('spec.nodeName')).toThrow(/expected key=value/));
  it('maps SAR requirements In/NotIn with one value', () => {
    expect(fieldRequirementsFromSar([{ key: 'spec.nodeName', operator: 'In', values: ['n1'] }])).toEqual([
      { field: 'spec.nodeName', operator: '=', value: 'n1' },
    ]);
    expect(() => fieldRequirementsFromSar([{ key: 'k', operator: 'In', values: ['a', 'b'] }])).toThrow(/exactly one value/);
  });
});
