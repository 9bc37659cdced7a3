import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', 'dist-*/', '.node/', 'node_modules/', '.astro/', 'data/', 'drizzle/', 'test-results/', 'playwright-report/', '**/*.astro'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Islands, stores and shared rules run in the browser: server code (database, secrets) must never be
    // bundled into them.
    files: ['src/features/**', 'src/stores/**', 'src/shared/**', 'src/components/**/*.tsx', 'src/components/admin/**', 'src/components/forms/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/server/**', '**/server', '@/server/*'], message: 'Client code must not import from src/server.' }] },
      ],
    },
  },
);
