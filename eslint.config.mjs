// Lint for the whole repo (run in npm test): typescript-eslint's recommended rules, the React hooks
// rules and Next's rules for the UI. Formatting is Prettier's job (prettier --check), not ESLint's.
import nextPlugin from '@next/eslint-plugin-next';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', '.next/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts', 'dist/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    // Tests and the test control plane read untyped JSON from the API server and fixtures.
    files: ['**/*.test.ts', '**/*.spec.ts', 'e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['app/**/*.{ts,tsx}', 'components/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, '@next/next': nextPlugin },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs['core-web-vitals'].rules,
    },
  },
  {
    // The export paths (reports, bundles, snapshots, downloads) handle lists as long as the cluster:
    // spreading one into a call's arguments (`push(...lines)`, `Math.max(...sizes)`) puts every item
    // on the stack and overflows past ~120,000 (issue #26). Loop instead.
    files: [
      'lib/report/**/*.ts',
      'lib/compliance/**/*.ts',
      'server/compliance/**/*.ts',
      'server/services/snapshot*.ts',
      'server/sources/bundle-source.ts',
      'server/http/stream-body.ts',
      'server/cli/commands/{report,export,diff,verify}.ts',
      'app/api/v1/snapshots/**/*.ts',
    ],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: ':matches(CallExpression, NewExpression) > SpreadElement',
          message: 'No spreading into call arguments on the export paths: a list as long as the cluster overflows the stack. Loop over it.',
        },
      ],
    },
  },
);
