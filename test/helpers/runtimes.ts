/**
 * `useRuntimes()`: per-test-file helper that loads runtimes from a config text in a fresh home
 * and closes every one of them (and so every server process) after each test.
 */

import { afterEach } from 'vitest';

import type { Runtime } from '@mcprt/runtime';
import { Runtime as RuntimeClass } from '@mcprt/runtime';

import { makeHome } from './fixtures.js';

export function useRuntimes(): (toml: string, processEnv?: NodeJS.ProcessEnv) => Runtime {
  const open: Runtime[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((r) => r.close()));
  });
  return (toml, processEnv = process.env) => {
    const runtime = RuntimeClass.load({ home: makeHome(toml), processEnv });
    open.push(runtime);
    return runtime;
  };
}
