// Sums "passed failed skipped" files written by each runner into one closing line, and sets the exit code.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;
const rows = [];
for (const name of readdirSync(dir)
  .filter((n) => !n.includes('.'))
  .sort()) {
  const [p, f, s] = readFileSync(join(dir, name), 'utf8').trim().split(/\s+/).map(Number);
  passed += p;
  failed += f;
  skipped += s;
  rows.push(`  ${name.padEnd(12)} ${p} passed, ${f} failed${s ? `, ${s} skipped` : ''}`);
}
console.log('\nper runner:\n' + rows.join('\n'));
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
