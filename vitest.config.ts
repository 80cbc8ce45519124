import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      '@mcprt/base': fileURLToPath(new URL('./packages/base/src/index.ts', import.meta.url)),
      '@mcprt/runtime': fileURLToPath(new URL('./packages/runtime/src/index.ts', import.meta.url)),
      '@mcprt/protocol': fileURLToPath(
        new URL('./packages/protocol/src/index.ts', import.meta.url),
      ),
      '@mcprt/app-server': fileURLToPath(
        new URL('./packages/app-server/src/index.ts', import.meta.url),
      ),
      '@mcprt/gateway': fileURLToPath(new URL('./packages/gateway/src/index.ts', import.meta.url)),
      '@mcprt/sdk': fileURLToPath(new URL('./packages/sdk/src/index.ts', import.meta.url)),
      '@mcprt/tui/mcpStatus': fileURLToPath(
        new URL('./packages/tui/src/mcpStatus.ts', import.meta.url),
      ),
      '@mcprt/tui': fileURLToPath(new URL('./packages/tui/src/index.ts', import.meta.url)),
      '@mcprt/sandbox-helper': fileURLToPath(
        new URL('./packages/sandbox-helper/src/index.ts', import.meta.url),
      ),
    },
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
