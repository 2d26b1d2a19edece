import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// `npm ci` on macOS or Windows refuses a lock that lacks that platform's optional packages (tailwind
// oxide, next swc, lightningcss, esbuild, …): "Missing: @tailwindcss/oxide-darwin-arm64 from lock file".
// Every optional dependency any locked package declares must itself be locked, whatever this machine is.

interface LockEntry {
  version?: string;
  optionalDependencies?: Record<string, string>;
  link?: boolean;
}

const lock = JSON.parse(readFileSync(join(process.cwd(), 'package-lock.json'), 'utf8')) as { lockfileVersion: number; packages: Record<string, LockEntry> };

/** Where node would find `name` from the package at `from` (its own node_modules, then up). */
function resolves(from: string, name: string): boolean {
  let dir = from;
  for (;;) {
    if (lock.packages[`${dir ? `${dir}/` : ''}node_modules/${name}`]) return true;
    if (!dir) return false;
    const i = dir.lastIndexOf('/node_modules/');
    dir = i < 0 ? '' : dir.slice(0, i);
  }
}

describe('package-lock.json', () => {
  it('records every optional platform package of every locked package', () => {
    expect(lock.lockfileVersion).toBe(3);
    const missing: string[] = [];
    let checked = 0;
    for (const [path, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        checked++;
        if (!resolves(path, name)) missing.push(`${name} (optional dependency of ${path || 'the root'})`);
      }
    }
    expect(missing).toEqual([]);
    // next, tailwind's oxide, lightningcss and esbuild alone declare dozens.
    expect(checked).toBeGreaterThan(50);
  });

  it.each([
    '@next/swc-darwin-arm64',
    '@next/swc-win32-x64-msvc',
    '@tailwindcss/oxide-darwin-arm64',
    '@tailwindcss/oxide-win32-x64-msvc',
    'lightningcss-darwin-arm64',
    'lightningcss-win32-x64-msvc',
  ])('locks %s', (name) => {
    expect(resolves('', name)).toBe(true);
  });
});
