import 'server-only';

/** A mistake in the command line: printed as one line, exit code 2. */
export class UsageError extends Error {
  readonly exitCode = 2;
}

export function parseKeyValue(flag: string, text: string): [string, string] {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new UsageError(`${flag} expects key=value, got "${text}"`);
  return [text.slice(0, eq), text.slice(eq + 1)];
}

export function collectExtra(flag: string, values: string[] | undefined): Record<string, string[]> | undefined {
  if (!values || values.length === 0) return undefined;
  const extra: Record<string, string[]> = Object.create(null);
  for (const v of values) {
    const [k, val] = parseKeyValue(flag, v);
    (extra[k] ??= []).push(val);
  }
  return { ...extra };
}
