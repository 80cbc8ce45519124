/**
 * Pin: the @mcprt/sdk export surface — its runtime values and its type-only exports. Adding or
 * removing one is an API decision: change this list on purpose, never to make a build pass.
 */

import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import * as api from './index.js';

/** Names in the index's `export type { … }` statements. */
function typeExports(): string[] {
  const text = readFileSync(new URL('./index.ts', import.meta.url), 'utf8');
  return [...text.matchAll(/export type \{([^}]*)\}/g)]
    .flatMap((m) => m[1]!.split(','))
    .map((name) => name.trim().split(' as ').pop()!.trim())
    .filter((name) => name !== '')
    .sort();
}

describe('@mcprt/sdk exports', () => {
  it('values are exactly these', () => {
    expect(Object.keys(api).sort()).toEqual([
      'ConnectionClosedError',
      'ErrorCode',
      'McprtClient',
      'ProtocolError',
      'RequestTimeoutError',
      'SDK_VERSION',
      'StdioTransport',
      'WebSocketTransport',
      'defaultAppServerCommand',
      'sanitizeTerminalText',
    ]);
  });

  it('types are exactly these', () => {
    expect(typeExports()).toEqual([
      'AnyServerNotification',
      'ClientInfo',
      'ClientTransport',
      'ConnectOptions',
      'McprtClientOptions',
      'NotificationHandler',
      'NotificationStream',
      'NotificationsOptions',
      'RequestOptions',
      'SanitizeOptions',
      'ServerNotification',
      'ServerRequestContext',
      'ServerRequestHandler',
      'SpawnOptions',
      'StdioTransportOptions',
      'Unsubscribe',
      'WebSocketTransportOptions',
    ]);
  });

  it('index.ts names every export (no `export *`)', () => {
    expect(readFileSync(new URL('./index.ts', import.meta.url), 'utf8')).not.toMatch(/export \*/);
  });
});
