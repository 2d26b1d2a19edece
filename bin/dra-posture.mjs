#!/usr/bin/env node
// Entry point of the `dra-posture` CLI. The TypeScript sources run under tsx with the
// react-server export condition, so `import 'server-only'` resolves to its no-op build.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'server', 'cli', 'main.ts');
const result = spawnSync(process.execPath, ['--conditions=react-server', '--import', 'tsx', entry, ...process.argv.slice(2)], {
  stdio: 'inherit',
  cwd: process.cwd(),
  env: { ...process.env, DRA_POSTURE_ROOT: root },
});
if (result.error) {
  console.error(`dra-posture: cannot start: ${result.error.message}`);
  process.exit(2);
}
process.exit(result.status ?? (result.signal ? 1 : 0));
