import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^server-only$/, replacement: `${root}scripts/test-support/server-only-stub.ts` },
      { find: /^@\//, replacement: root },
    ],
  },
  test: {
    environment: 'node',
    include: ['lib/**/*.test.ts', 'server/**/*.test.ts', 'components/**/*.test.ts', 'scripts/**/*.test.ts', 'e2e/**/*.test.ts'],
    exclude: ['node_modules/**', '.next/**'],
    testTimeout: 20_000,
    pool: 'forks',
  },
});
