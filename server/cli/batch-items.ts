import 'server-only';
import { readFile } from 'node:fs/promises';
import { UsageError } from './usage-error';

/** The items of a batch file: a JSON array, a `kind: List` (`items`), one JSON object, or JSON lines. */
export function jsonItems(trimmed: string, fileName: string): unknown[] {
  try {
    const doc = JSON.parse(trimmed) as unknown;
    if (Array.isArray(doc)) return doc;
    if (doc && typeof doc === 'object' && Array.isArray((doc as { items?: unknown }).items)) return (doc as { items: unknown[] }).items;
    return [doc];
  } catch {
    const items: unknown[] = [];
    trimmed.split('\n').forEach((line, i) => {
      if (line.trim() === '') return;
      try {
        items.push(JSON.parse(line));
      } catch (e) {
        throw new UsageError(`${fileName}: line ${i + 1}: not JSON (${(e as Error).message})`);
      }
    });
    return items;
  }
}

/** A batch file's text, or standard input for "-". */
export async function readBatchFile(path: string): Promise<string> {
  try {
    return path === '-' ? await readStdin() : await readFile(path, 'utf8');
  } catch (e) {
    throw new UsageError(`--batch ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
