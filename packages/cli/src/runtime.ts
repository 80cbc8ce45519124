/**
 * Opening the runtime for a command: resolves the config file from the global options, prints
 * config warnings to stderr, and turns config errors into messages naming file:line:column.
 */

import { dirname } from 'node:path';

import { Runtime } from '@mcprt/runtime';
import type { McprtConfig } from '@mcprt/runtime';
import { assertPrivatePath, loadConfig, resolveConfigFile } from '@mcprt/runtime';

import type { GlobalOptions } from './args.js';
import type { Io } from './io.js';
import { closeOnSignal } from './shutdown.js';

/**
 * The config file the global options select. Its directory (the mcprt home, or the Codex home)
 * must be this user's (or root's) and not writable by others — whoever can write there can add a
 * server that runs as this user — else `UnsafePathError` (one line, exit 1).
 */
export function configFile(globals: GlobalOptions): { file: string; mode: 'mcprt' | 'codex' } {
  const resolved = resolveConfigFile({
    ...(globals.home !== undefined ? { home: globals.home } : {}),
    ...(globals.codexHome !== undefined ? { codexHome: globals.codexHome } : {}),
  });
  assertPrivatePath(dirname(resolved.file), {
    what: resolved.mode === 'codex' ? 'the Codex home' : 'the mcprt home',
  });
  return resolved;
}

export function readConfig(globals: GlobalOptions, io: Io): McprtConfig {
  const { file, mode } = configFile(globals);
  const config = loadConfig({ file, mode, strict: globals.strict });
  for (const warning of config.warnings) io.err(`warning: ${warning.message}`);
  return config;
}

/**
 * The runtime with its history store (`$MCPRT_HOME/history.sqlite`); warnings go to stderr. A
 * signal closes it (every server process group ended) before the process exits.
 */
export function openRuntime(
  globals: GlobalOptions,
  io: Io,
  /** Where warnings said while it runs go (the TUI keeps them until its screen is gone). */
  warn: (line: string) => void = (line) => io.err(line),
): Runtime {
  configFile(globals); // refuses an unsafe home first
  const runtime = Runtime.load({
    ...(globals.home !== undefined ? { home: globals.home } : {}),
    ...(globals.codexHome !== undefined ? { codexHome: globals.codexHome } : {}),
    strict: globals.strict,
    // Said once, like config warnings (e.g. `auto` falling back to the credentials file).
    oauth: { onWarning: (message) => warn(`warning: ${message}`) },
  });
  for (const warning of runtime.config.warnings) io.err(`warning: ${warning.message}`);
  closeOnSignal(() => runtime.close());
  return runtime;
}
