// Kubernetes resource quantities (resource.Quantity), held exactly: quota limits and DRA capacities
// are compared and summed, and floating point would make "used == hard" flaky at large values.
//
// Grammar (k8s.io/apimachinery/pkg/api/resource): [+-] digits [. digits] suffix, where suffix is a
// binary SI suffix (Ki Mi Gi Ti Pi Ei), a decimal SI suffix (n u m "" k M G T P E) or a decimal
// exponent (e or E followed by a signed integer). "1E" is one exa; "1E3" is 1000.
// Stricter than Go in two corners: a number needs at least one digit ("." and "Ki" are refused, Go
// reads them as 0), and exponents beyond ±1000 are refused instead of being capped.

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** value = num / 10^scale, with scale >= 0 and as small as possible. */
export interface Quantity {
  readonly num: bigint;
  readonly scale: number;
  /** The notation it was written in; formatQuantity answers in the same family, like kube. */
  readonly format: QuantityFormat;
}

const MAX_EXPONENT = 1000;
const MAX_DIGITS = 1000;

const BINARY_SUFFIXES: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL_SUFFIXES: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

export function parseQuantity(input: string | number): Quantity | undefined {
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return undefined;
    text = String(input);
  } else if (typeof input === 'string') {
    text = input;
  } else {
    return undefined;
  }
  const end = text.length;
  if (end === 0 || end > MAX_DIGITS + 40) return undefined;
  let pos = 0;
  let negative = false;
  if (text[0] === '-' || text[0] === '+') {
    negative = text[0] === '-';
    pos++;
  }
  const intStart = pos;
  while (pos < end && isDigit(text.charCodeAt(pos))) pos++;
  const intDigits = text.slice(intStart, pos);
  let fracDigits = '';
  if (pos < end && text[pos] === '.') {
    pos++;
    const fracStart = pos;
    while (pos < end && isDigit(text.charCodeAt(pos))) pos++;
    fracDigits = text.slice(fracStart, pos);
  }
  if (intDigits.length + fracDigits.length === 0) return undefined;

  const suffix = text.slice(pos);
  let format: QuantityFormat;
  let binaryShift = 0;
  let exponent = 0;
  if (Object.hasOwn(DECIMAL_SUFFIXES, suffix)) {
    format = 'DecimalSI';
    exponent = DECIMAL_SUFFIXES[suffix];
  } else if (Object.hasOwn(BINARY_SUFFIXES, suffix)) {
    format = 'BinarySI';
    binaryShift = BINARY_SUFFIXES[suffix];
  } else if ((suffix[0] === 'e' || suffix[0] === 'E') && suffix.length > 1) {
    let i = 1;
    let expNegative = false;
    if (suffix[1] === '-' || suffix[1] === '+') {
      expNegative = suffix[1] === '-';
      i++;
    }
    if (i >= suffix.length) return undefined;
    for (let j = i; j < suffix.length; j++) if (!isDigit(suffix.charCodeAt(j))) return undefined;
    const magnitude = Number(suffix.slice(i));
    if (magnitude > MAX_EXPONENT) return undefined;
    exponent = expNegative ? -magnitude : magnitude;
    format = 'DecimalExponent';
  } else {
    return undefined;
  }

  let num = BigInt((intDigits || '0') + fracDigits);
  let scale = fracDigits.length - exponent;
  if (binaryShift > 0) num <<= BigInt(binaryShift);
  if (negative) num = -num;
  if (scale < 0) {
    num *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return normalize(num, scale, format);
}

function normalize(num: bigint, scale: number, format: QuantityFormat): Quantity {
  if (num === 0n) return { num: 0n, scale: 0, format };
  while (scale > 0 && num % 10n === 0n) {
    num /= 10n;
    scale--;
  }
  return { num, scale, format };
}

function align(a: Quantity, b: Quantity): [bigint, bigint, number] {
  if (a.scale === b.scale) return [a.num, b.num, a.scale];
  if (a.scale > b.scale) return [a.num, b.num * 10n ** BigInt(a.scale - b.scale), a.scale];
  return [a.num * 10n ** BigInt(b.scale - a.scale), b.num, b.scale];
}

/** Negative, zero or positive, like Quantity.Cmp. */
export function compareQuantities(a: Quantity, b: Quantity): -1 | 0 | 1 {
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The sum keeps the first operand's notation, like Quantity.Add. */
export function addQuantities(a: Quantity, b: Quantity): Quantity {
  const [x, y, scale] = align(a, b);
  return normalize(x + y, scale, a.format);
}

export function subtractQuantities(a: Quantity, b: Quantity): Quantity {
  const [x, y, scale] = align(a, b);
  return normalize(x - y, scale, a.format);
}

/** Approximate, for charts and percentages only. */
export function quantityToNumber(q: Quantity): number {
  return q.scale === 0 ? Number(q.num) : Number(q.num) / 10 ** q.scale;
}

export function quantityFromInteger(value: number | bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
  return normalize(BigInt(value), 0, format);
}

const DECIMAL_BY_EXPONENT: Record<number, string> = { [-9]: 'n', [-6]: 'u', [-3]: 'm', 0: '', 3: 'k', 6: 'M', 9: 'G', 12: 'T', 15: 'P', 18: 'E' };
const BINARY_NAMES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

/**
 * Canonical-ish text, following kube's rules: an integer mantissa with the largest suffix that keeps
 * it whole ("1.5k" → "1500", "2000" → "2k", "0.5" → "500m"); BinarySI falls back to decimal for
 * values below 1Ki or with a fraction ("1.5Ki" → "1536", "0.5Gi" → "512Mi"). Precision below 1n is
 * rounded up to 1n, as kube does.
 */
export function formatQuantity(q: Quantity): string {
  const num = q.num;
  let scale = q.scale;
  if (num === 0n) return '0';
  const negative = num < 0n;
  let abs = negative ? -num : num;
  if (scale > 9) {
    const divisor = 10n ** BigInt(scale - 9);
    abs = (abs + divisor - 1n) / divisor;
    scale = 9;
  }
  const sign = negative ? '-' : '';
  if (q.format === 'BinarySI' && scale === 0 && abs >= 1024n) {
    let unit = 0;
    while (unit < 6 && abs % 1024n === 0n) {
      abs /= 1024n;
      unit++;
    }
    return `${sign}${abs}${BINARY_NAMES[unit]}`;
  }
  // Decimal: value = abs * 10^-scale; move whole thousands between mantissa and exponent.
  let exponent = -scale;
  const remainder = ((exponent % 3) + 3) % 3;
  if (remainder !== 0) {
    abs *= 10n ** BigInt(remainder);
    exponent -= remainder;
  }
  const maxExponent = q.format === 'DecimalExponent' ? Number.MAX_SAFE_INTEGER : 18;
  while (exponent < maxExponent && abs % 1000n === 0n) {
    abs /= 1000n;
    exponent += 3;
  }
  if (q.format === 'DecimalExponent') return exponent === 0 ? `${sign}${abs}` : `${sign}${abs}e${exponent}`;
  return `${sign}${abs}${DECIMAL_BY_EXPONENT[exponent]}`;
}
