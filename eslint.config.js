import js from '@eslint/js'
import tseslint from 'typescript-eslint'

import curata from './eslint/layers.js'

export default tseslint.config(
  { ignores: ['node_modules', 'data', 'coverage', 'bench/results', 'console/dist'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { curata },
    rules: { 'curata/layers': 'error' },
  },
)
