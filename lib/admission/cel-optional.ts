import { celFunc, celList, celMethod, CelScalar, isCelList, isCelMap, type CelList, type CelValue } from '@bufbuild/cel';

// Kubernetes turns on CEL's optional types for admission policies (`extra[?'key']`, `spec.?nodeName`,
// `.orValue(x)`, `optional.of(x)`); @bufbuild/cel's parser does not read that syntax. So the text is
// rewritten into member calls the parser reads (`a.?b` → `a.__optSelect("b")`, `a[?k]` →
// `a.__optIndex(k)`), and an optional value is a one-or-zero element list kept in a WeakSet, so that
// only values made here count as optionals. As in cel-go, once a chain has an optional step, every
// later field selection or index of the same chain is optional too (`a.?b.c` is none when c is absent).
// Optional entries in list and map literals (`[?x]`, `{?k: v}`) are not rewritten: such a text is
// refused, and the caller reports the expression as unknown.

export class UnsupportedCel extends Error {
  constructor(message: string) {
    super(`unsupported: ${message}`);
    this.name = 'UnsupportedCel';
  }
}

type Token = { kind: 'ws' | 'str' | 'num' | 'ident' | 'punct'; text: string };

const IDENT = /[A-Za-z_][A-Za-z0-9_]*/y;
const NUMBER = /(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)[uU]?/y;
const SPACE = /\s+/y;

function stringEnd(text: string, start: number): number {
  let i = start;
  while (i < text.length && /[rRbB]/.test(text[i])) i++;
  const raw = /[rR]/.test(text.slice(start, i));
  const quote = text[i];
  const triple = text.slice(i, i + 3) === quote.repeat(3);
  const close = triple ? quote.repeat(3) : quote;
  i += close.length;
  while (i < text.length) {
    if (!raw && text[i] === '\\') i += 2;
    else if (text.startsWith(close, i)) return i + close.length;
    else if (!triple && text[i] === '\n') break;
    else i++;
  }
  throw new UnsupportedCel('unterminated string literal');
}

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const sticky = (re: RegExp) => {
    re.lastIndex = i;
    const m = re.exec(text);
    return m ? m[0] : undefined;
  };
  while (i < text.length) {
    const c = text[i];
    let t: Token;
    if (/\s/.test(c)) t = { kind: 'ws', text: sticky(SPACE)! };
    else if (c === '"' || c === "'" || (/[rRbB]/.test(c) && /^[rRbB]{1,2}["']/.test(text.slice(i, i + 3))))
      t = { kind: 'str', text: text.slice(i, stringEnd(text, i)) };
    else if (/[A-Za-z_]/.test(c)) t = { kind: 'ident', text: sticky(IDENT)! };
    else if (/\d/.test(c) || (c === '.' && /\d/.test(text[i + 1] ?? ''))) t = { kind: 'num', text: sticky(NUMBER)! };
    else t = { kind: 'punct', text: c };
    out.push(t);
    i += t.text.length;
  }
  return out;
}

const ENDS_OPTIONAL = new Set(['orValue', 'value', 'hasValue']);

/** The expression with its optional syntax written as member calls; the text itself when it has none. */
export function rewriteOptionalSyntax(text: string): string {
  if (!/\.\s*\?|\[\s*\?|\{\s*\?|optional\s*\./.test(text)) return text;
  const tokens = tokenize(text);
  const next = (i: number) => {
    let j = i + 1;
    while (j < tokens.length && tokens[j].kind === 'ws') j++;
    return j;
  };
  const out: string[] = [];
  // One frame per open bracket: whether the current member chain is optional, and what closes it.
  const frames: { optional: boolean; closer: string; afterClose: boolean; group?: boolean }[] = [{ optional: false, closer: '', afterClose: false }];
  let prevOperand = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const frame = frames[frames.length - 1];
    if (t.kind === 'ws') {
      out.push(t.text);
      continue;
    }
    if (t.kind === 'ident' && t.text === 'optional' && !prevOperand) {
      const dot = next(i);
      const fn = next(dot);
      if (tokens[dot]?.text === '.' && tokens[fn]?.kind === 'ident' && tokens[next(fn)]?.text === '(') {
        out.push(`__optional_${tokens[fn].text}`);
        i = fn;
        prevOperand = true;
        continue;
      }
    }
    if (t.text === '.') {
      const q = next(i);
      const isOptional = tokens[q]?.text === '?';
      const f = isOptional ? next(q) : q;
      const field = tokens[f];
      if (field?.kind !== 'ident') throw new UnsupportedCel(`unexpected text after "."`);
      const call = tokens[next(f)]?.text === '(';
      if (isOptional || (frame.optional && !call)) {
        out.push(`.__optSelect(${JSON.stringify(field.text)})`);
        frame.optional = true;
        i = f;
        prevOperand = true;
        continue;
      }
      if (call && frame.optional && ENDS_OPTIONAL.has(field.text)) frame.optional = false;
      else if (call && field.text !== 'or') frame.optional = false;
      out.push('.', field.text);
      i = f;
      prevOperand = true;
      continue;
    }
    if (t.text === '[' || t.text === '(' || t.text === '{') {
      const q = next(i);
      const optionalIndex = t.text === '[' && tokens[q]?.text === '?';
      if (t.text === '[' && prevOperand && (optionalIndex || frame.optional)) {
        out.push('.__optIndex(');
        frames.push({ optional: false, closer: ')', afterClose: true });
        if (optionalIndex) i = q;
      } else {
        if (tokens[q]?.text === '?') throw new UnsupportedCel('optional entries in list or map literals');
        out.push(t.text);
        frames.push({ optional: false, closer: t.text === '[' ? ']' : t.text === '(' ? ')' : '}', afterClose: false, group: t.text === '(' && !prevOperand });
      }
      prevOperand = false;
      continue;
    }
    if (t.text === ']' || t.text === ')' || t.text === '}') {
      const closed = frames.pop();
      if (!closed || frames.length === 0) throw new UnsupportedCel('unbalanced brackets');
      out.push(closed.closer);
      // A parenthesised optional stays optional for the steps after it; a call keeps what its name set.
      const outer = frames[frames.length - 1];
      outer.optional = closed.afterClose || (closed.group ? closed.optional : t.text === ')' && outer.optional);
      prevOperand = true;
      continue;
    }
    if (t.text === ',' && frames.length > 1 && tokens[next(i)]?.text === '?' && frame.closer !== ')')
      throw new UnsupportedCel('optional entries in list or map literals');
    out.push(t.text);
    // An operator, comma or literal ends the chain; an identifier starts a new one.
    frame.optional = false;
    prevOperand = t.kind === 'ident' || t.kind === 'str' || t.kind === 'num';
  }
  if (frames.length !== 1) throw new UnsupportedCel('unbalanced brackets');
  return out.join('');
}

// ---------------------------------------------------------------- optional values

const OPTIONALS = new WeakSet<object>();

function optionalOf(value: CelValue | undefined): CelList {
  const l = celList(value === undefined ? [] : [value]);
  OPTIONALS.add(l);
  return l;
}

const isOptional = (v: unknown): v is CelList => typeof v === 'object' && v !== null && OPTIONALS.has(v);

function present(v: CelList): CelValue | undefined {
  return v.size === 0 ? undefined : (v.get(0) as CelValue);
}

/** One optional step on a value (or on an optional, which it unwraps first). */
function step(target: CelValue, key: CelValue, how: 'select' | 'index'): CelList {
  let base: CelValue | undefined = target;
  if (isOptional(target)) {
    base = present(target);
    if (base === undefined) return optionalOf(undefined);
  }
  if (isCelMap(base)) return optionalOf(base.has(key as never) ? (base.get(key as never) as CelValue) : undefined);
  if (how === 'index' && isCelList(base) && typeof key === 'bigint') {
    const i = Number(key);
    return optionalOf(i >= 0 && i < base.size ? (base.get(i) as CelValue) : undefined);
  }
  throw new UnsupportedCel(`optional ${how} on a ${base === null ? 'null' : typeof base} value`);
}

function need(target: CelValue): CelList {
  if (!isOptional(target)) throw new UnsupportedCel('an optional method on a value that is not optional');
  return target;
}

export const OPTIONAL_FUNCS = [
  celMethod('__optSelect', CelScalar.DYN, [CelScalar.STRING], CelScalar.DYN, function (field) {
    return step(this, field, 'select');
  }),
  celMethod('__optIndex', CelScalar.DYN, [CelScalar.DYN], CelScalar.DYN, function (key) {
    return step(this, key, 'index');
  }),
  celMethod('orValue', CelScalar.DYN, [CelScalar.DYN], CelScalar.DYN, function (fallback) {
    return present(need(this)) ?? fallback;
  }),
  celMethod('hasValue', CelScalar.DYN, [], CelScalar.BOOL, function () {
    return present(need(this)) !== undefined;
  }),
  celMethod('value', CelScalar.DYN, [], CelScalar.DYN, function () {
    const v = present(need(this));
    if (v === undefined) throw new UnsupportedCel('value() of optional.none()');
    return v;
  }),
  celMethod('or', CelScalar.DYN, [CelScalar.DYN], CelScalar.DYN, function (other) {
    return present(need(this)) !== undefined ? this : need(other);
  }),
  celFunc('__optional_of', [CelScalar.DYN], CelScalar.DYN, (v) => optionalOf(v)),
  celFunc('__optional_none', [], CelScalar.DYN, () => optionalOf(undefined)),
];
