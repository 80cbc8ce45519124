import type { ServerStatus } from '@mcprt/runtime';
import { describe, expect, it } from 'vitest';

import { toWireStatus } from './statusMapper.js';

const status = (patch: Partial<ServerStatus> = {}): ServerStatus => ({
  scope: { environmentId: 'box', name: 'docs' },
  name: 'docs',
  environmentId: 'box',
  executionEnvironmentId: 'box',
  transport: 'stdio',
  enabled: true,
  required: false,
  startupStatus: 'ready',
  connectionStatus: 'connected',
  error: null,
  failureKind: null,
  restartCount: 0,
  restarting: false,
  lastExit: null,
  stderrTail: ['booted'],
  serverInfo: { name: 'docs-server', version: '1.2.0', websiteUrl: 'https://example.test' },
  capabilities: { tools: {} },
  httpOrigin: null,
  authStatus: 'unsupported',
  instructions: null,
  protocolVersion: '2026-07-28',
  tools: [
    {
      name: 'search',
      modelName: 'mcp__box__docs__search',
      definition: { name: 'search', inputSchema: { type: 'object' } },
    },
  ],
  resources: [{ uri: 'docs://a', name: 'a', title: undefined }],
  resourceTemplates: [{ uriTemplate: 'docs://{id}', name: 'by id' }],
  pid: 42,
  ...patch,
});

describe('toWireStatus', () => {
  it("maps a connected registration to Codex's item plus mcprt's extras", () => {
    expect(toWireStatus(status(), 'full', true)).toEqual({
      name: 'docs',
      environmentId: 'box',
      runtimeStatus: 'connected',
      pluginId: null,
      httpOrigin: null,
      serverInfo: {
        name: 'docs-server',
        version: '1.2.0',
        websiteUrl: 'https://example.test',
        title: null,
        description: null,
        icons: null,
      },
      serverCapabilities: { tools: {} },
      toolListMeta: null,
      tools: { search: { name: 'search', inputSchema: { type: 'object' } } },
      toolsError: null,
      resources: [{ uri: 'docs://a', name: 'a' }],
      resourceTemplates: [{ uriTemplate: 'docs://{id}', name: 'by id' }],
      authStatus: 'unsupported',
      executionEnvironmentId: 'box',
      startupStatus: 'ready',
      stderrTail: ['booted'],
      modelToolNames: { search: 'mcp__box__docs__search' },
      protocolVersion: '2026-07-28',
    });
  });

  it('leaves protocolVersion out while no revision has been negotiated', () => {
    const starting = status({ connectionStatus: 'starting', protocolVersion: null, tools: [] });
    expect(toWireStatus(starting, 'full', true)).not.toHaveProperty('protocolVersion');
  });

  it('leaves resources out for toolsAndAuthOnly and the runtime status out without a live thread', () => {
    const wire = toWireStatus(status(), 'toolsAndAuthOnly', false);
    expect(wire.resources).toEqual([]);
    expect(wire.resourceTemplates).toEqual([]);
    expect(wire.runtimeStatus).toBeNull();
  });

  it("reports a failed registration's error as toolsError, but never a disabled one's", () => {
    const failed = status({ connectionStatus: 'failed', error: 'it broke', tools: [] });
    expect(toWireStatus(failed, 'full', true).toolsError).toBe('it broke');
    const disabled = status({ connectionStatus: 'disabled', error: 'off', serverInfo: null });
    expect(toWireStatus(disabled, 'full', true)).toMatchObject({
      toolsError: null,
      serverInfo: null,
    });
  });
});
