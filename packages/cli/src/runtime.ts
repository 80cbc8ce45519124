/**
 * Opening the runtime for a command: resolves the config file from the global options, prints
 * config warnings to stderr, and turns config errors into messages naming file:line:column.
 */

import { Runtime } from '@mcprt/runtime';
import type { McprtConfig } from '@mcprt/runtime';
import { loadConfig, resolveConfigFile } from '@mcprt/runtime';

import type { GlobalOptions } from './args.js';
import type { Io } from './io.js';

export function configFile(globals: GlobalOptions): { file: string; mode: 'mcprt' | 'codex' } {
  return resolveConfigFile({
    ...(globals.home !== undefined ? { home: globals.home } : {}),
    ...(globals.codexHome !== undefined ? { codexHome: globals.codexHome } : {}),
  });
}

export function readConfig(globals: GlobalOptions, io: Io): McprtConfig {
  const { file, mode } = configFile(globals);
  const config = loadConfig({ file, mode, strict: globals.strict });
  for (const warning of config.warnings) io.err(`warning: ${warning.message}`);
  return config;
}

/** The runtime with its history store (`$MCPRT_HOME/history.sqlite`); warnings go to stderr. */
export function openRuntime(globals: GlobalOptions, io: Io): Runtime {
  const runtime = Runtime.load({
    ...(globals.home !== undefined ? { home: globals.home } : {}),
    ...(globals.codexHome !== undefined ? { codexHome: globals.codexHome } : {}),
    strict: globals.strict,
    // Said once, like config warnings (e.g. `auto` falling back to the credentials file).
    oauth: { onWarning: (message) => io.err(`warning: ${message}`) },
  });
  for (const warning of runtime.config.warnings) io.err(`warning: ${warning.message}`);
  return runtime;
}
