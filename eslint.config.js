import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { layersRule } from './eslint/layers.js';
import { noCycleRule } from './eslint/no-cycle.js';

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
);
