/**
 * `mcprt mcp list|get|add|remove`: read and edit the registrations in `config.toml` without
 * starting any server — except `mcp get --status`, which starts that one registration to show its
 * live state and negotiated MCP protocol revision. Edits keep comments and unrelated content (the
 * config module's editor).
 */

import type { McprtConfig, RegistrationScope } from '@mcprt/runtime';
import { addServerToFile, removeServerFromFile, SERVER_NAME_PATTERN } from '@mcprt/runtime';

import type { GlobalOptions } from '../args.js';
import { parse, splitAtDoubleDash, UsageError } from '../args.js';
import {
  invalidJson,
  renderConfigList,
  renderServerDetails,
  serverJson,
} from '../format/configView.js';
import { liveStatusJson, renderLiveStatus } from '../format/statusView.js';
import type { Io } from '../io.js';
import { configFile, openRuntime, readConfig } from '../runtime.js';
import { loginCommand, logoutCommand } from './login.js';

export async function mcpCommand(
  argv: readonly string[],
  globals: GlobalOptions,
  io: Io,
): Promise<number> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case 'list':
      return list(rest, globals, io);
    case 'get':
      return get(rest, globals, io);
    case 'add':
      return add(rest, globals, io);
    case 'remove':
      return remove(rest, globals, io);
    case 'login':
      return loginCommand(rest, globals, io);
    case 'logout':
      return logoutCommand(rest, globals, io);
    default:
      throw new UsageError(
        sub === undefined
          ? 'mcp: missing subcommand (list, get, add, remove, login, logout)'
          : `mcp: unknown subcommand '${sub}'`,
      );
  }
}

function list(argv: readonly string[], globals: GlobalOptions, io: Io): number {
  const { values } = parse(argv, { json: { type: 'boolean' } }, 'mcp list');
  const config = readConfig(globals, io);
  if (values.json) {
    io.out(
      JSON.stringify(
        [...config.servers.map(serverJson), ...config.invalidServers.map(invalidJson)],
        null,
        2,
      ),
    );
  } else if (config.servers.length === 0 && config.invalidServers.length === 0) {
    io.out('No MCP servers configured yet. Try `mcprt mcp add my-tool -- my-command`.');
  } else {
    io.out(renderConfigList(config));
  }
  return 0;
}

/** Without `--environment`: the thread-wide registration, else the first environment's. */
function findServer(config: McprtConfig, name: string, environmentId: string | undefined) {
  const all = [...config.servers, ...config.invalidServers];
  if (environmentId !== undefined)
    return all.find((s) => s.scope.name === name && s.scope.environmentId === environmentId);
  return (
    all.find((s) => s.scope.name === name && s.scope.environmentId === null) ??
    config.environments
      .map((e) => all.find((s) => s.scope.name === name && s.scope.environmentId === e.id))
      .find(Boolean)
  );
}

function notFound(name: string, environmentId: string | undefined): string {
  return environmentId === undefined
    ? `No MCP server named '${name}' found.`
    : `No MCP server named '${name}' found in environment \`${environmentId}\`.`;
}

async function get(argv: readonly string[], globals: GlobalOptions, io: Io): Promise<number> {
  const { values, positionals } = parse(
    argv,
    { json: { type: 'boolean' }, environment: { type: 'string' }, status: { type: 'boolean' } },
    'mcp get',
  );
  const name = positionals[0];
  if (name === undefined || positionals.length > 1)
    throw new UsageError('usage: mcprt mcp get <name> [--environment <id>] [--json] [--status]');
  const config = readConfig(globals, io);
  const found = findServer(config, name, values.environment);
  if (!found) {
    io.err(notFound(name, values.environment));
    return 1;
  }
  if ('transport' in found) {
    const live = values.status ? await liveStatus(found.scope, globals, io) : null;
    if (values.json)
      io.out(JSON.stringify({ ...serverJson(found), ...(live ? { status: live } : {}) }, null, 2));
    else io.out(renderServerDetails(found) + (live ? renderLiveStatus(live) : ''));
    return 0;
  }
  if (values.json) io.out(JSON.stringify(invalidJson(found), null, 2));
  else
    io.out(
      `${found.scope.name}: invalid\n${found.diagnostics.map((d) => `  ${d.message}`).join('\n')}\n`,
    );
  return 1;
}

/** `mcp get --status`: start only this registration, wait until it settled, then stop it. */
async function liveStatus(scope: RegistrationScope, globals: GlobalOptions, io: Io) {
  const runtime = openRuntime(globals, io);
  try {
    const session = runtime.startSession({ cwd: process.cwd(), lazy: true });
    return liveStatusJson(await session.connect(scope.name, scope.environmentId));
  } finally {
    await runtime.close();
  }
}

function add(argv: readonly string[], globals: GlobalOptions, io: Io): number {
  const { head, tail } = splitAtDoubleDash(argv);
  const { values, positionals } = parse(
    head,
    {
      env: { type: 'string', multiple: true },
      environment: { type: 'string' },
      url: { type: 'string' },
      'bearer-token-env-var': { type: 'string' },
    },
    'mcp add',
  );
  const usage =
    'usage: mcprt mcp add <name> [--env K=V]... [--environment <id>] (--url URL [--bearer-token-env-var VAR] | -- CMD ARGS...)';
  const name = positionals[0];
  if (name === undefined || positionals.length > 1) throw new UsageError(usage);
  if (!SERVER_NAME_PATTERN.test(name)) {
    throw new UsageError(`Invalid MCP server name '${name}': must match pattern ^[a-zA-Z0-9_-]+$`);
  }
  const command = tail ?? [];
  if ((values.url === undefined) === (command.length === 0)) {
    throw new UsageError(`mcp add: give exactly one of --url URL or -- CMD ARGS...\n${usage}`);
  }
  const table: Record<string, unknown> = {};
  if (values.url !== undefined) {
    if (values.env?.length)
      throw new UsageError('mcp add: --env is not supported for streamable_http servers');
    table['url'] = values.url;
    if (values['bearer-token-env-var'] !== undefined)
      table['bearer_token_env_var'] = values['bearer-token-env-var'];
  } else {
    if (values['bearer-token-env-var'] !== undefined)
      throw new UsageError('mcp add: --bearer-token-env-var needs --url');
    table['command'] = command[0];
    if (command.length > 1) table['args'] = command.slice(1);
    const env = Object.fromEntries(
      (values.env ?? []).map((pair) => {
        const eq = pair.indexOf('=');
        if (eq <= 0) throw new UsageError(`mcp add: --env expects KEY=VALUE, got '${pair}'`);
        return [pair.slice(0, eq), pair.slice(eq + 1)];
      }),
    );
    if (Object.keys(env).length > 0) table['env'] = env;
  }
  const scope: RegistrationScope = { environmentId: values.environment ?? null, name };
  const { file } = configFile(globals);
  addServerToFile(file, { scope, table });
  io.out(
    scope.environmentId === null
      ? `Added global MCP server '${name}'.`
      : `Added MCP server '${name}' to environment '${scope.environmentId}'.`,
  );
  return 0;
}

function remove(argv: readonly string[], globals: GlobalOptions, io: Io): number {
  const { values, positionals } = parse(argv, { environment: { type: 'string' } }, 'mcp remove');
  const name = positionals[0];
  if (name === undefined || positionals.length > 1)
    throw new UsageError('usage: mcprt mcp remove <name> [--environment <id>]');
  const scope: RegistrationScope = { environmentId: values.environment ?? null, name };
  removeServerFromFile(configFile(globals).file, scope);
  io.out(
    scope.environmentId === null
      ? `Removed global MCP server '${name}'.`
      : `Removed MCP server '${name}' from environment '${scope.environmentId}'.`,
  );
  return 0;
}
