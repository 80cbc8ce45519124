/** Unit tests: the gateway's log line per startup transition says what a client will see. */

import type { ServerStatus, StartupStatusEvent } from '@mcprt/runtime';
import { describe, expect, it } from 'vitest';

import { defaultLoginCommand, startupMessage } from './status.js';

const scope = { environmentId: 'a', name: 'docs' };
const failed: StartupStatusEvent = {
  threadId: 't',
  scope,
  name: 'docs',
  environmentId: 'a',
  status: 'failed',
  error: 'MCP server `docs@a` stopped: boom',
  failureKind: 'crashed',
};
/** The status fields the message reads (the rest of a ServerStatus does not matter here). */
const status = (connectionStatus: string, tools: number) =>
  ({ connectionStatus, tools: new Array(tools).fill({}) }) as unknown as ServerStatus;

describe('startup log lines', () => {
  it('a failed server without tools: an error, its tools unavailable', () => {
    expect(startupMessage(failed, status('failed', 0), defaultLoginCommand)).toEqual({
      level: 'error',
      message:
        'MCP server `docs@a` failed; its tools are unavailable: MCP server `docs@a` stopped: boom',
    });
  });

  it('a failed server whose tools stay listed (lost with its environment): a warning saying so', () => {
    expect(startupMessage(failed, status('failed', 3), defaultLoginCommand)).toEqual({
      level: 'warning',
      message:
        'MCP server `docs@a` failed: MCP server `docs@a` stopped: boom; its 3 tools stay listed and the next call starts it again',
    });
  });

  it('a login needed: the command; ready: the tool count; starting: nothing', () => {
    expect(
      startupMessage(failed, status('authenticationRequired', 0), defaultLoginCommand),
    ).toEqual({
      level: 'warning',
      message:
        'MCP server `docs@a` needs an OAuth login; its tools are unavailable until you run `mcprt mcp login docs --environment a`',
    });
    const ready = { ...failed, status: 'ready' as const, error: null };
    expect(startupMessage(ready, status('connected', 2), defaultLoginCommand)).toEqual({
      level: 'info',
      message: 'MCP server `docs@a` is ready (2 tools)',
    });
    expect(startupMessage({ ...ready, status: 'starting' }, undefined, defaultLoginCommand)).toBe(
      null,
    );
  });
});
