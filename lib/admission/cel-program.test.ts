import { describe, expect, it } from 'vitest';
import { rewriteOptionalSyntax } from './cel-optional';
import { compileCel, toCelInput } from './cel-program';

// CEL as Kubernetes admission policies use it: the standard library and macros, the strings
// extension, optionals (`[?k]`, `.?f`, `.orValue()`), integers as int, and three kinds of outcome.

const bindings = {
  object: toCelInput({
    spec: { nodeName: 'n2', count: 2, ratio: 0.5, devices: { requests: [{ name: 'a', exactly: { deviceClassName: 'gpu.example.com' } }] } },
  }),
  request: toCelInput({ operation: 'CREATE', userInfo: { username: 'u', groups: ['g'], extra: { 'authentication.kubernetes.io/node-name': ['n1'] } } }),
  oldObject: null,
};
const run = (text: string) => compileCel(text).run(bindings);
const value = (text: string) => {
  const out = run(text);
  if (out.kind !== 'value') throw new Error(`${text}: ${out.kind} ${'reason' in out ? out.reason : out.message}`);
  return out.value;
};

describe('CEL programs', () => {
  it('standard library, macros, strings extension; JSON integers are int', () => {
    expect(value("object.spec.devices.requests.all(r, r.exactly.deviceClassName.startsWith('gpu.'))")).toBe(true);
    expect(value("object.spec.devices.requests.exists(r, r.exactly.deviceClassName.matches('^gpu\\\\.[a-z]+\\\\.com$'))")).toBe(true);
    expect(value("'a,b'.split(',').size() == 2 && 'AB'.lowerAscii() == 'ab'")).toBe(true);
    expect(value('object.spec.count == 2 && object.spec.count + 1 == 3 && object.spec.ratio < 1.0')).toBe(true);
    expect(value('has(object.spec.devices) && !has(object.spec.allNodes)')).toBe(true);
    expect(value("'g' in request.userInfo.groups")).toBe(true);
  });
  it('optionals: index and field, chained, orValue, hasValue, optional.of/none', () => {
    expect(value("request.userInfo.extra[?'authentication.kubernetes.io/node-name'][0].orValue('')")).toBe('n1');
    expect(value("request.userInfo.extra[?'absent'][0].orValue('none')")).toBe('none');
    expect(value('(request.operation == "DELETE" ? oldObject : object).spec.?nodeName.orValue("")')).toBe('n2');
    expect(value('object.spec.?devices.requests[5].orValue(0)')).toBe(0n);
    expect(value('object.spec.?allNodes.hasValue()')).toBe(false);
    expect(value('optional.of(1).orValue(2) == 1 && !optional.none().hasValue()')).toBe(true);
    expect(rewriteOptionalSyntax('"a.?b" + x.?y')).toBe('"a.?b" + x.__optSelect("y")');
  });
  it('a missing field or index is an error Kubernetes raises too; what the evaluator lacks is unknown', () => {
    expect(run('object.spec.allNodes').kind).toBe('error');
    expect(run('object.spec.devices.requests[3].name').kind).toBe('error');
    expect(run("object.spec.nodeName.find('n')").kind).toBe('unknown');
    expect(run('[?object.spec.?x]').kind).toBe('unknown');
    expect(run('object.spec.(').kind).toBe('unknown');
  });
  it('compiles each expression once', () => {
    expect(compileCel('1 + 1')).toBe(compileCel('1 + 1'));
  });
});
