/**
 * `/app [<server>] <tool> [open] [--environment <id>]`: read the UI resource a tool names
 * (`mcpServer/resource/read`), write its HTML — under the Content-Security-Policy it declared
 * (appView.ts) — to a new 0600 file in a new private folder under the system's temporary folder,
 * and say where. Only with `open` is the file handed to the browser opener the host gave
 * (the CLI's); never otherwise.
 */

import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { scopeLabel } from '@mcprt/base';

import type { TextItem } from '../model/cells.js';
import type { Command } from '../model/commands.js';
import type { AppTarget } from '../model/appView.js';
import { appCsp, appTargets, withCsp } from '../model/appView.js';
import { legacyScope } from '../model/registrations.js';
import type { ActionContext } from './actions.js';

/** What the host lends `/app`: where files go, and how a file is opened in a browser. */
export interface AppHost {
  /** The folder new app folders are made in (default: the system's temporary folder). */
  readonly appDir?: string;
  /** Open a written file in the browser (none: `open` says it cannot). */
  readonly openInBrowser?: (path: string) => Promise<void>;
}

const MIME = 'text/html;profile=mcp-app';

export async function runApp(
  ctx: ActionContext,
  command: Extract<Command, { kind: 'app' }>,
): Promise<void> {
  const host = ctx.apps;
  const items: TextItem[] = [];
  const id = ctx.addCell(
    { kind: 'text', items: [say(`• App of ${command.tool}: reading…`)] },
    false,
  );
  const done = () => ctx.replaceCell(id, { kind: 'text', items }, true);
  const fail = (text: string) => {
    items.push(say(`• App of ${command.tool}`), say(`Error: ${text}`, 'error', '  └ '));
    done();
  };
  const threadId = ctx.threadId();
  if (threadId === null) return fail('there is no thread to read apps in');
  const regs = ctx.registrations();
  // A server without an environment follows `/call`'s rule: thread-wide first, then the order.
  const environmentId =
    command.server !== null && command.environmentId === null
      ? legacyScope(regs, command.server, ctx.environmentOrder())
      : (command.environmentId ?? undefined);
  const found = appTargets(regs, command.tool, command.server, environmentId);
  if (found.length !== 1) return fail(notOne(command, found));
  const target = found[0]!;
  const label = `${scopeLabel({ name: target.server, environmentId: target.environmentId })}.${target.tool}`;
  try {
    const read = await ctx.client.request('mcpServer/resource/read', {
      threadId,
      server: target.server,
      uri: target.uri,
      ...(target.environmentId === null ? {} : { environmentId: target.environmentId }),
    });
    const content = read.contents.find((c) => c.mimeType === MIME) ?? read.contents[0];
    if (content === undefined) return fail(`${target.uri} has no contents`);
    const html =
      'text' in content
        ? String(content.text)
        : Buffer.from(String(content.blob), 'base64').toString();
    const dir = await mkdtemp(join(host.appDir ?? tmpdir(), 'mcprt-app-'));
    const file = join(dir, `${safe(label)}.html`);
    await writeFile(file, withCsp(html, appCsp(content._meta)), { mode: 0o600, flag: 'wx' });
    items.push(say(`• App of ${label} (${target.uri})`), say(`wrote ${file}`, 'plain', '  └ '));
    if (!command.open) {
      items.push(say(`/app ${commandArgs(target)} open opens it in your browser`, 'dim', '    '));
    } else if (host.openInBrowser === undefined) {
      items.push(
        say('Opening a browser is not available here: open the file yourself', 'warn', '    '),
      );
    } else {
      await host.openInBrowser(file);
      items.push(say('opened in your browser', 'plain', '    '));
    }
    done();
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
}

function notOne(command: Extract<Command, { kind: 'app' }>, found: readonly AppTarget[]): string {
  const where = [
    command.server === null ? '' : ` of \`${command.server}\``,
    command.environmentId === null ? '' : ` in environment \`${command.environmentId}\``,
  ].join('');
  if (found.length === 0) return `no tool \`${command.tool}\`${where} has an app UI`;
  const names = found.map(
    (t) => `\`${scopeLabel({ name: t.server, environmentId: t.environmentId })}\``,
  );
  return `\`${command.tool}\` has an app UI in ${names.join(', ')}; name one: /app <server> ${command.tool} [--environment <id>]`;
}

function commandArgs(t: AppTarget): string {
  return `${t.server} ${t.tool}${t.environmentId === null ? '' : ` --environment ${t.environmentId}`}`;
}

/** A file name from a label: letters, digits, `@`, `.`, `_`, `-` (others become `_`). */
function safe(label: string): string {
  return label.replace(/[^A-Za-z0-9@._-]/g, '_').slice(0, 120);
}

function say(text: string, tone: TextItem['tone'] = 'plain', prefix = ''): TextItem {
  return { text, tone, prefix, restPrefix: prefix === '' ? '  ' : `${' '.repeat(prefix.length)}` };
}
