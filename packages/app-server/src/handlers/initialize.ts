/** `initialize`: the handshake. Reports Codex's fields; remembers the client's capabilities. */

import os from 'node:os';

import type { HandlerContext } from '../context.js';
import { invalidRequest } from '../errorMap.js';

interface InitializeInput {
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly capabilities?:
    { readonly experimentalApi?: boolean | null | undefined } | null | undefined;
}

export async function initialize(params: InitializeInput, ctx: HandlerContext) {
  if (ctx.peer.initialized) throw invalidRequest('Already initialized');
  ctx.peer.initialized = true;
  ctx.peer.clientName = params.clientInfo.name;
  ctx.peer.experimentalApi = params.capabilities?.experimentalApi === true;
  const platform = `${os.type()} ${os.release()}; ${os.arch()}`;
  return {
    userAgent: `${params.clientInfo.name}/${ctx.state.version} (${platform}) mcprt (${params.clientInfo.name}; ${params.clientInfo.version})`,
    codexHome: ctx.state.home,
    platformFamily: process.platform === 'win32' ? 'windows' : 'unix',
    platformOs: process.platform === 'darwin' ? 'macos' : process.platform,
  };
}
