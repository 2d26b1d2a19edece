import { describe, expect, it } from 'vitest';

import {
  addQuantities,
  compareQuantities,
  formatQuantity,
  parseQuantity,
  quantityFromInteger,
  quantityToNumber,
  subtractQuantities,
  type Quantity,
} from './quantity';

function q(text: string | number): Quantity {
  const parsed = parseQuantity(text);
  if (!parsed) throw new Error(`test quantity ${text} did not parse`);
  return parsed;
}

/** The exact value as "num/10^scale" so table rows stay readable. */
function exact(text: string | number): string {
  const { num, scale } = q(text);
  return scale === 0 ? `${num}` : `${num}e-${scale}`;
}

describe('parseQuantity', () => {
  it.each([
    ['0', '0'],
    ['10', '10'],
    ['32', '32'],
    ['+7', '7'],
    ['-3', '-3'],
    ['007', '7'],
    ['1.5', '15e-1'],
    ['1.', '1'],
    ['.5', '5e-1'],
    ['500m', '5e-1'],
    ['1000m', '1'],
    ['1m', '1e-3'],
    ['250u', '25e-5'],
    ['5n', '5e-9'],
    ['2k', '2000'],
    ['3M', '3000000'],
    ['1G', '1000000000'],
    ['1T', '1000000000000'],
    ['1P', '1000000000000000'],
    ['1E', '1000000000000000000'],
    ['2Ki', '2048'],
    ['1Mi', '1048576'],
    ['1Gi', '1073741824'],
    ['80Gi', '85899345920'],
    ['1.5Gi', '1610612736'],
    ['1Ti', '1099511627776'],
    ['1Pi', '1125899906842624'],
    ['1Ei', '1152921504606846976'],
    ['1e3', '1000'],
    ['1E3', '1000'],
    ['1e-3', '1e-3'],
    ['1.5e+2', '150'],
    ['12E6', '12000000'],
    ['9223372036854775807', '9223372036854775807'],
    ['9223372036854775808', '9223372036854775808'],
    ['18446744073709551617m', '18446744073709551617e-3'],
  ])('%s = %s', (text, value) => {
    expect(exact(text)).toBe(value);
  });

  it('keeps the notation family for formatting', () => {
    expect([q('1Gi').format, q('1G').format, q('1e9').format, q('1E').format, q('1E3').format]).toEqual([
      'BinarySI',
      'DecimalSI',
      'DecimalExponent',
      'DecimalSI',
      'DecimalExponent',
    ]);
  });

  it('reads numbers the way YAML hands them over', () => {
    expect(exact(10)).toBe('10');
    expect(exact(0.25)).toBe('25e-2');
    expect(exact(1e21)).toBe('1000000000000000000000');
    expect(parseQuantity(Number.NaN)).toBeUndefined();
    expect(parseQuantity(Number.POSITIVE_INFINITY)).toBeUndefined();
  });

  it.each([
    '',
    ' ',
    ' 1',
    '1 ',
    '-',
    '+',
    '.',
    'Ki',
    'm',
    '1K',
    '1KI',
    '1ki',
    '1mi',
    '1e',
    '1E+',
    '1e1.5',
    '1e3m',
    '1Gi3',
    '1..2',
    '1,5',
    '0x10',
    '1_000',
    '1e1001',
    'ten',
    '--1',
  ])('refuses %j', (text) => {
    expect(parseQuantity(text)).toBeUndefined();
  });

  it('refuses non-string, non-number input', () => {
    expect(parseQuantity(null as unknown as string)).toBeUndefined();
    expect(parseQuantity({} as unknown as string)).toBeUndefined();
  });
});

describe('compareQuantities', () => {
  it.each([
    ['1', '1000m', 0],
    ['1Ki', '1024', 0],
    ['1k', '1Ki', -1],
    ['1Gi', '1G', 1],
    ['1e3', '1k', 0],
    ['500m', '0.5', 0],
    ['-1', '0', -1],
    ['9223372036854775807', '9223372036854775806', 1],
    ['9223372036854775807', '9223372036854775807000m', 0],
    ['1n', '0', 1],
    ['32', '31.999', 1],
  ] as const)('%s vs %s → %i', (a, b, expected) => {
    expect(compareQuantities(q(a), q(b))).toBe(expected);
    expect(compareQuantities(q(b), q(a))).toBe(-expected || 0);
  });
});

describe('addQuantities', () => {
  it('adds exactly across suffixes', () => {
    expect(formatQuantity(addQuantities(q('1Gi'), q('512Mi')))).toBe('1536Mi');
    expect(formatQuantity(addQuantities(q('100m'), q('900m')))).toBe('1');
    expect(formatQuantity(addQuantities(q('1'), q('500m')))).toBe('1500m');
    expect(exact('9223372036854775807')).toBe('9223372036854775807');
    const big = addQuantities(q('9223372036854775807'), q('1'));
    expect(big.num).toBe(9223372036854775808n);
  });

  it('sums many DRA device counts without drift', () => {
    let total = quantityFromInteger(0);
    for (let i = 0; i < 1000; i++) total = addQuantities(total, q('100m'));
    expect(formatQuantity(total)).toBe('100');
    expect(compareQuantities(total, q('100'))).toBe(0);
  });

  it('keeps the first operand notation and subtracts', () => {
    expect(addQuantities(q('1Ki'), q('1k')).format).toBe('BinarySI');
    expect(formatQuantity(subtractQuantities(q('2Gi'), q('1Gi')))).toBe('1Gi');
    expect(formatQuantity(subtractQuantities(q('1'), q('2')))).toBe('-1');
  });
});

describe('formatQuantity', () => {
  it.each([
    ['0', '0'],
    ['0Gi', '0'],
    ['1', '1'],
    ['1500', '1500'],
    ['1.5k', '1500'],
    ['2000', '2k'],
    ['2000000', '2M'],
    ['0.5', '500m'],
    ['1.5', '1500m'],
    ['1000m', '1'],
    ['0.0005', '500u'],
    ['0.1n', '1n'],
    ['-500m', '-500m'],
    ['1Gi', '1Gi'],
    ['1024Mi', '1Gi'],
    ['1536Mi', '1536Mi'],
    ['1.5Gi', '1536Mi'],
    ['0.5Gi', '512Mi'],
    ['1.5Ki', '1536'],
    ['0.5Ki', '512'],
    ['1Ei', '1Ei'],
    ['2048Ei', '2048Ei'],
    ['1e3', '1e3'],
    ['1E3', '1e3'],
    ['1.5e3', '1500'],
    ['12E6', '12e6'],
    ['1e-3', '1e-3'],
    ['1E', '1E'],
    ['1000E', '1000E'],
    ['80Gi', '80Gi'],
  ])('%s → %s', (text, formatted) => {
    expect(formatQuantity(q(text))).toBe(formatted);
  });

  it('round-trips: formatting then parsing gives the same value', () => {
    for (const text of ['7', '250m', '3Gi', '1.25', '12e6', '999999999999999999999', '1.5Ki', '5n']) {
      expect(compareQuantities(q(formatQuantity(q(text))), q(text))).toBe(0);
    }
  });
});

describe('quantityToNumber', () => {
  it('gives an approximate number for charts', () => {
    expect(quantityToNumber(q('1500m'))).toBe(1.5);
    expect(quantityToNumber(q('2Ki'))).toBe(2048);
    expect(quantityToNumber(q('-250m'))).toBe(-0.25);
  });
});
