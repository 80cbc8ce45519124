/**
 * What the gateway derives once from its options: the session's environments (the ids given, in
 * routing order, each with its cwd) and the instructions its clients are given.
 */

import { UnknownEnvironmentError } from '@mcprt/runtime';
import type { Runtime, SessionEnvironment, ToolView } from '@mcprt/runtime';

/** The session's environments: the given ids in order (`local` is implicit), each with its cwd. */
export function selectEnvironments(
  runtime: Runtime,
  ids: readonly string[] | undefined,
  cwd: string,
): SessionEnvironment[] | undefined {
  if (ids === undefined || ids.length === 0) return undefined;
  const registry = runtime.environments;
  const selected: SessionEnvironment[] = [];
  for (const id of ids) {
    if (!registry.has(id)) throw new UnknownEnvironmentError(id);
    if (id === 'local' || selected.some((e) => e.environmentId === id)) continue;
    selected.push({ environmentId: id, cwd: registry.get(id)?.defaultCwd ?? cwd });
  }
  return selected;
}

export function instructionsFor(
  environments: readonly string[],
  viewName: string | null,
  view: ToolView,
): string {
  const where =
    environments.length === 0
      ? 'this machine'
      : `this machine and the environments ${environments.map((e) => `\`${e}\``).join(', ')}`;
  const search = view.selection.config?.toolSearch ?? 'off';
  return [
    viewName === null
      ? `mcprt gateway: the tools, resources and prompts of every MCP server mcprt runs on ${where}.`
      : `mcprt gateway: the tools, resources and prompts of view \`${viewName}\` of the MCP servers mcprt runs on ${where}.`,
    view.prefixMode === 'conditional'
      ? 'Each tool title and description names its `server@environment`.'
      : 'Tool names are `<environment>__<server>__<tool>` (`<server>__<tool>` for servers of this machine); each title and description names its `server@environment`.',
    ...(search === 'off'
      ? []
      : [
          "When the listed tools do not cover a task, call `search_tools` with what you want to do (and where), `get_tool_details` for a tool's arguments, then `call_tool` with its exact name.",
        ]),
    `The resource mcprt://gateway/status lists every server, its state and how to fix a failing one.`,
  ].join(' ');
}
