import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { layersRule } from './eslint/layers.js';
import { noCycleRule } from './eslint/no-cycle.js';
import { noRawTextRule } from './eslint/no-raw-text.js';

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', '.tmp/**', 'test-results/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    plugins: { ragdesk: { rules: { layers: layersRule, 'no-cycle': noCycleRule } } },
    rules: {
      'ragdesk/layers': 'error',
      'ragdesk/no-cycle': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['src/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Every word of the UI comes from the catalogues (src/renderer/i18n); the catalogues themselves and tests are exempt.
    files: ['src/renderer/**/*.{ts,tsx}'],
    ignores: ['src/renderer/**/*.test.{ts,tsx}', 'src/renderer/i18n/en.ts', 'src/renderer/i18n/ru.ts', 'src/renderer/i18n/zh-CN.ts'],
    plugins: { i18n: { rules: { 'no-raw-text': noRawTextRule } } },
    rules: { 'i18n/no-raw-text': ['error', { allow: ['ragdesk'] }] },
  },
);
