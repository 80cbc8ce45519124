#!/usr/bin/env node
/**
 * The `mcprt` executable: global options, command dispatch, and the mapping from failures to
 * exit codes (2 usage, 1 everything else) with one clear message on stderr.
 */

import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

import type { GlobalOptions } from './args.js';
import { extractGlobals, UsageError } from './args.js';
import type { Io } from './io.js';
import { processIo } from './io.js';
import { isTuiOption, opensTui } from './tuiChoice.js';

type Command = (args: readonly string[], globals: GlobalOptions, io: Io) => Promise<number>;

/**
 * Each command's module is loaded when that command runs: `mcprt app-server` does not load the
 * gateway, the MCP server SDK, the TUI's client or the WebSocket library, and `mcprt serve` not
 * the app-server's (start-up time is module loading; docs/performance.md).
 */
const commands: Record<string, () => Promise<Command>> = {
  status: async () => (await import('./commands/status.js')).statusCommand,
  tools: async () => (await import('./commands/tools.js')).toolsCommand,
  tui: async () => (await import('./commands/tui.js')).tuiCommand,
  mcp: async () => (await import('./commands/mcp.js')).mcpCommand,
  call: async () => (await import('./commands/call.js')).callCommand,
  history: async () => (await import('./commands/history.js')).historyCommand,
  'app-server': async () => (await import('./commands/appServer.js')).appServerCommand,
  sandbox: async () => {
    const { sandboxCommand } = await import('./commands/sandbox.js');
    return (args, _globals, io) => sandboxCommand(args, io);
  },
  serve: async () => (await import('./commands/serve.js')).serveCommand,
};

export const HELP = `mcprt — an MCP runtime

Usage:
  mcprt [--home DIR | --codex-home DIR] [--strict] [command]

Commands:
  (none)                           on a terminal: the TUI (/mcp, /call, elicitation forms);
                                   otherwise the same as status
  tui [--remote ws://HOST:PORT [--token-file F]] [--view NAME]
                                   the TUI, on an in-process or a remote app-server
  status [--json] [--view NAME]    start every server, print status by environment, exit
  tools [--view NAME] [--environment <id>] [--json]
                                   the tools a model is shown (of a view) and their tokens
  mcp list [--json]                list configured servers
  mcp get <name> [--environment <id>] [--json] [--status]
  mcp add <name> [--env K=V]... [--environment <id>] (--url URL [--bearer-token-env-var VAR] | -- CMD ARGS...)
  mcp remove <name> [--environment <id>]
  mcp login <name> [--environment <id>] [--scopes a,b] [--no-browser]
                                   OAuth login (loopback callback; --no-browser: paste the redirect URL)
  mcp logout <name> [--environment <id>]
  call <server> <tool> [--environment <id>] [--args JSON] [--timeout-sec N]
  history [--json] [--server S] [--environment ID | --thread-wide] [--view NAME] [--caller ID] [--status S] [--since ISO] [--limit N]
                                   recorded tool calls, newest first
  app-server [--listen stdio|ws://127.0.0.1:PORT] [--ws-token-file F]
                                   serve the Codex-compatible JSON-RPC app-server
  serve [--environment <id>]... [--view NAME]
        [--listen stdio|http://127.0.0.1:PORT|https://HOST:PORT] [--tls-cert F --tls-key F]
        [--http-token-file F] [--sandbox-state-json JSON]
                                   one MCP server (a gateway) for every server in every
                                   environment; stdio by default (see docs/gateway.md)
  sandbox --sandbox-state-json JSON -- CMD ARGS...
                                   run CMD under a sandbox state with bubblewrap

Options:
  --home DIR         mcprt home (default $MCPRT_HOME, else ~/.mcprt); config is DIR/config.toml
  --codex-home DIR   read a Codex home's config.toml in place
  --strict           unknown config keys are errors, not warnings
`;

export async function run(argv: readonly string[], io: Io = processIo): Promise<number> {
  try {
    if (argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
      io.out(HELP);
      return 0;
    }
    const { globals, rest } = extractGlobals(argv);
    const [command, ...args] = rest;
    if (command === undefined) {
      const load = opensTui(io) ? commands['tui'] : commands['status'];
      return await (
        await load!()
      )(args, globals, io);
    }
    const load = Object.prototype.hasOwnProperty.call(commands, command)
      ? commands[command]
      : undefined;
    if (load !== undefined) return await (await load())(args, globals, io);
    if (isTuiOption(command)) return await (await commands['tui']!())(rest, globals, io);
    throw new UsageError(`unknown command '${command}' (see mcprt --help)`);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`mcprt: ${error.message}`);
      return 2;
    }
    io.err(`mcprt: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

const isMain =
  process.argv[1] !== undefined &&
  import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
if (isMain) {
  run(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`mcprt: ${String(error)}\n`);
      process.exit(1);
    },
  );
}
