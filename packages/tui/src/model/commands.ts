/**
 * The slash-command language of the prompt, parsed into a typed command or an `invalid` with
 * the message the user sees. `/call` takes its arguments as one JSON object that may contain
 * spaces; `--environment` may stand before or after it (never inside it).
 */

import type { HistoryCallStatus } from '@mcprt/protocol';

const HISTORY_STATUSES: readonly HistoryCallStatus[] = [
  'inProgress',
  'completed',
  'failed',
  'cancelled',
];

export type Command =
  | { readonly kind: 'mcp'; readonly verbose: boolean }
  | {
      readonly kind: 'login' | 'logout';
      readonly name: string;
      readonly environmentId: string | null;
    }
  | {
      readonly kind: 'call';
      readonly server: string;
      readonly tool: string;
      readonly args: Record<string, unknown>;
      readonly argsText: string;
      readonly environmentId: string | null;
    }
  | { readonly kind: 'history'; readonly filters: HistoryFilters }
  | {
      readonly kind: 'app';
      /** null: whichever registration has a tool of that name with an app UI (only one may). */
      readonly server: string | null;
      readonly tool: string;
      readonly environmentId: string | null;
      /** Open the written file in the browser too. */
      readonly open: boolean;
    }
  | { readonly kind: 'help' }
  | { readonly kind: 'quit' }
  | { readonly kind: 'invalid'; readonly message: string };

export interface HistoryFilters {
  readonly server: string | null;
  readonly environmentId: string | null;
  readonly status: HistoryCallStatus | null;
  /** Only calls of thread-wide registrations. */
  readonly threadWideOnly: boolean;
  /** Every thread's calls, not only this session's. */
  readonly allThreads: boolean;
  readonly limit: number;
}

export const USAGE = {
  call: 'usage: /call <server> <tool> [<json object>] [--environment <id>]',
  login: 'usage: /mcp login <name> [--environment <id>]',
  logout: 'usage: /mcp logout <name> [--environment <id>]',
  history:
    'usage: /history [--server <name>] [--environment <id> | --thread-wide] [--status <status>] [--all] [--limit N]',
  app: 'usage: /app [<server>] <tool> [open] [--environment <id>]',
  mcp: 'usage: /mcp [verbose] | /mcp login <name> [--environment <id>] | /mcp logout <name> [--environment <id>]',
} as const;

export const HELP_LINES = [
  '/mcp                      servers by environment, live status',
  '/mcp verbose              auth, tools, resources, failure causes',
  '/mcp login <name> [--environment <id>]',
  '    then open the URL shown, or paste the redirect URL back here',
  '/mcp logout <name> [--environment <id>]',
  '/call <server> <tool> <json> [--environment <id>]',
  '/history [--server S] [--environment E | --thread-wide] [--status S] [--all] [--limit N]',
  '/app [<server>] <tool> [open] [--environment <id>]',
  "    write a tool's app UI to a file; open: also in the browser",
  '/quit                     leave (also Ctrl+C, or Ctrl+D on an empty line)',
] as const;

const invalid = (message: string): Command => ({ kind: 'invalid', message });

export function parseCommand(input: string): Command {
  const text = input.trim();
  if (!text.startsWith('/')) return invalid('Commands start with / (try /help).');
  const [head = '', ...rest] = text.split(/\s+/);
  const tail = text.slice(head.length).trim();
  switch (head) {
    case '/mcp':
      return parseMcp(rest);
    case '/call':
      return parseCall(tail);
    case '/history':
      return parseHistory(rest);
    case '/app':
      return parseApp(rest);
    case '/help':
    case '/?':
      return { kind: 'help' };
    case '/quit':
    case '/exit':
      return { kind: 'quit' };
    default:
      return invalid(`Unknown command ${head} (try /help).`);
  }
}

function parseMcp(args: readonly string[]): Command {
  const [sub, ...rest] = args;
  if (sub === undefined) return { kind: 'mcp', verbose: false };
  if (sub === 'verbose' && rest.length === 0) return { kind: 'mcp', verbose: true };
  if (sub === 'login' || sub === 'logout') {
    const flags = takeFlags(rest, ['environment'], []);
    if ('error' in flags) return invalid(`${flags.error}; ${USAGE[sub]}`);
    const [name, ...extra] = flags.positionals;
    if (name === undefined || extra.length > 0) return invalid(USAGE[sub]);
    return { kind: sub, name, environmentId: flags.values['environment'] ?? null };
  }
  return invalid(USAGE.mcp);
}

function parseHistory(args: readonly string[]): Command {
  const flags = takeFlags(
    args,
    ['server', 'environment', 'status', 'limit'],
    ['all', 'thread-wide'],
  );
  if ('error' in flags) return invalid(`${flags.error}; ${USAGE.history}`);
  if (flags.positionals.length > 0) return invalid(USAGE.history);
  const limitText = flags.values['limit'];
  const limit = limitText === undefined ? 20 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 500)
    return invalid('--limit must be an integer from 1 to 500');
  const status = flags.values['status'] ?? null;
  if (status !== null && !(HISTORY_STATUSES as readonly string[]).includes(status))
    return invalid(`--status must be one of ${HISTORY_STATUSES.join(', ')}`);
  const threadWideOnly = flags.switches.has('thread-wide');
  if (threadWideOnly && flags.values['environment'] !== undefined)
    return invalid('--thread-wide and --environment cannot be used together');
  return {
    kind: 'history',
    filters: {
      server: flags.values['server'] ?? null,
      environmentId: flags.values['environment'] ?? null,
      status: status as HistoryCallStatus | null,
      threadWideOnly,
      allThreads: flags.switches.has('all'),
      limit,
    },
  };
}

function parseApp(args: readonly string[]): Command {
  const flags = takeFlags(args, ['environment'], []);
  if ('error' in flags) return invalid(`${flags.error}; ${USAGE.app}`);
  const words = [...flags.positionals];
  const open = words.length > 1 && words.at(-1) === 'open';
  if (open) words.pop();
  if (words.length < 1 || words.length > 2) return invalid(USAGE.app);
  const [first, second] = words as [string, string | undefined];
  return {
    kind: 'app',
    server: second === undefined ? null : first,
    tool: second ?? first,
    environmentId: flags.values['environment'] ?? null,
    open,
  };
}

function parseCall(tail: string): Command {
  const m = /^(\S+)\s+(\S+)\s*([\s\S]*)$/.exec(tail);
  if (!m) return invalid(USAGE.call);
  const server = m[1]!;
  const tool = m[2]!;
  let rest = m[3]!.trim();
  if (server.startsWith('--') || tool.startsWith('--')) return invalid(USAGE.call);
  let environmentId: string | null = null;
  let argsText: string | null = null;
  while (rest !== '') {
    const flag = /^--environment(?:=|\s+)(\S+)\s*/.exec(rest);
    if (flag) {
      if (environmentId !== null) return invalid('--environment is given twice');
      environmentId = flag[1]!;
      rest = rest.slice(flag[0].length);
      continue;
    }
    if (rest.startsWith('{') && argsText === null) {
      const end = jsonObjectEnd(rest);
      if (end < 0) return invalid('the arguments are not a complete JSON object');
      argsText = rest.slice(0, end);
      rest = rest.slice(end).trim();
      continue;
    }
    const word = /^\S+/.exec(rest)?.[0] ?? rest;
    return argsText === null
      ? invalid(`the arguments must be a JSON object, got \`${word}\`; ${USAGE.call}`)
      : invalid(`unexpected \`${word}\` after the arguments; ${USAGE.call}`);
  }
  let args: Record<string, unknown> = {};
  if (argsText !== null) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(argsText);
    } catch (error) {
      return invalid(`the arguments are not valid JSON: ${(error as Error).message}`);
    }
    args = parsed as Record<string, unknown>;
  }
  return { kind: 'call', server, tool, args, argsText: JSON.stringify(args), environmentId };
}

/** Index just past the JSON object that starts `text`, or -1 when it never closes. */
function jsonObjectEnd(text: string): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function takeFlags(
  args: readonly string[],
  valued: readonly string[],
  switches: readonly string[],
):
  | { values: Record<string, string>; switches: Set<string>; positionals: string[] }
  | { error: string } {
  const values: Record<string, string> = {};
  const on = new Set<string>();
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    if (switches.includes(name) && eq < 0) {
      on.add(name);
    } else if (valued.includes(name)) {
      const value = eq < 0 ? args[++i] : arg.slice(eq + 1);
      if (value === undefined || value === '') return { error: `--${name} needs a value` };
      if (values[name] !== undefined) return { error: `--${name} is given twice` };
      values[name] = value;
    } else {
      return { error: `unknown option --${name}` };
    }
  }
  return { values, switches: on, positionals };
}
