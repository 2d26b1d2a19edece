import type { FieldRequirement } from './types';

/**
 * Parses a field selector the way fields.ParseSelector does for authorization: comma-separated
 * `key=value`, `key==value` (both become "="), `key!=value`; `\` escapes `,` `=` `!` and `\`.
 */
export function parseFieldSelector(raw: string): FieldRequirement[] {
  const out: FieldRequirement[] = [];
  if (raw.trim() === '') return out;
  for (const term of splitUnescaped(raw, ',')) {
    const m = /^(.*?)(!=|==|=)(.*)$/s.exec(findOperator(term));
    if (!m) throw new Error(`invalid field selector term "${unescape(term)}": expected key=value, key==value or key!=value`);
    const [field, op, value] = [unescape(term.slice(0, m[1].length)).trim(), m[2], unescape(term.slice(m[1].length + m[2].length))];
    if (field === '') throw new Error(`invalid field selector term "${unescape(term)}": empty key`);
    out.push({ field, operator: op === '!=' ? '!=' : '=', value });
  }
  return out;
}

/** SubjectAccessReview `fieldSelector.requirements`: In/NotIn with exactly one value map to = and !=. */
export function fieldRequirementsFromSar(reqs: { key: string; operator: string; values?: string[] }[]): FieldRequirement[] {
  return reqs.map((r) => {
    const values = r.values ?? [];
    if ((r.operator === 'In' || r.operator === 'NotIn') && values.length === 1) {
      return { field: r.key, operator: r.operator === 'In' ? '=' : '!=', value: values[0] };
    }
    throw new Error(
      `field selector requirement on "${r.key}": only In or NotIn with exactly one value are supported (got ${r.operator} with ${values.length} values)`,
    );
  });
}

// Masks escaped characters so operator search ignores them, keeping string positions.
function findOperator(term: string): string {
  return term.replace(/\\./gs, '__');
}

function splitUnescaped(s: string, sep: string): string[] {
  const parts: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\' && i + 1 < s.length) {
      cur += c + s[i + 1];
      i++;
    } else if (c === sep) {
      parts.push(cur);
      cur = '';
    } else cur += c;
  }
  parts.push(cur);
  return parts;
}

function unescape(s: string): string {
  return s.replace(/\\(.)/gs, '$1');
}
