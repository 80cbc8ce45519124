// ESLint flat config: typescript-eslint recommended, plus the runtime's layering rules.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        setInterval: 'readonly',
        setImmediate: 'readonly',
        clearImmediate: 'readonly',
        queueMicrotask: 'readonly',
        structuredClone: 'readonly',
        clearInterval: 'readonly',
        fetch: 'readonly',
        Headers: 'readonly',
        Response: 'readonly',
        Request: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Only launch/, connection/ and auth/ may talk to the MCP SDK (docs/adr/0001-layout.md, 0007),
    // and no runtime folder imports another mcprt package but @mcprt/base.
    files: ['packages/runtime/src/**/*.ts'],
    ignores: [
      'packages/runtime/src/launch/**',
      'packages/runtime/src/connection/**',
      'packages/runtime/src/auth/**',
      '**/*.test.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['@modelcontextprotocol/*', '@mcprt/*', '!@mcprt/base'] },
      ],
    },
  },
  {
    // The runtime never imports the wire protocol or its clients (test/architecture/layering.test.ts
    // checks every layering rule from the sources).
    files: [
      'packages/runtime/src/launch/**',
      'packages/runtime/src/connection/**',
      'packages/runtime/src/auth/**',
    ],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['@mcprt/*', '!@mcprt/base'] }],
    },
  },
);
