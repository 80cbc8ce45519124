/**
 * 2025-11-25 over streamable HTTP with sessions: each `initialize` gets its own gateway server
 * instance and `Mcp-Session-Id`, so a 2025 client can receive what only a session can carry —
 * `list_changed` and log messages on its GET stream, and the `elicitation/create` requests the
 * SDK's shim sends while a tool call waits for input (the SDK's stateless fallback cannot: its
 * per-request instances never saw the client's capabilities). A session belongs to the caller
 * that opened it: its instance serves that caller, and the same `Mcp-Session-Id` presented by
 * another caller is 404 "Session not found", exactly like an unknown one. Sessions end on DELETE,
 * on eviction when there are too many, or when the gateway closes.
 */

import { randomUUID } from 'node:crypto';

import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { Server } from '@modelcontextprotocol/server';

import type { Caller } from '../caller.js';
import type { Gateway } from '../gateway.js';

export const MAX_LEGACY_SESSIONS = 64;

interface LegacySession {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: Server;
  readonly caller: Caller;
  lastUsed: number;
}

export class LegacySessions {
  private readonly sessions = new Map<string, LegacySession>();

  constructor(
    private readonly gateway: Gateway,
    private readonly maxRequestBodySize: number,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  async handle(request: Request, caller: Caller): Promise<Response> {
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
      const session = this.sessions.get(id);
      if (session === undefined || !sameCaller(session.caller, caller)) {
        return Response.json(
          { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null },
          { status: 404 },
        );
      }
      session.lastUsed = Date.now();
      return session.transport.handleRequest(request);
    }
    // No session yet: only an `initialize` may open one (the transport answers anything else 400).
    const server = this.gateway.createServer({ era: 'legacy', track: true, caller });
    // What a request causes (its text may be the requester's own) goes to stderr only.
    server.onerror = (error) => this.gateway.logLocal('debug', `http: ${error.message}`);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: this.maxRequestBodySize,
      onsessioninitialized: (sessionId) => {
        this.evictIfFull();
        this.sessions.set(sessionId, { transport, server, caller, lastUsed: Date.now() });
      },
      onsessionclosed: (sessionId) => void this.drop(sessionId),
    });
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    if (transport.sessionId === undefined) await server.close().catch(() => undefined);
    return response;
  }

  async close(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.drop(id)));
  }

  private async drop(sessionId: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (session === undefined) return;
    this.sessions.delete(sessionId);
    await session.server.close().catch(() => undefined);
  }

  private evictIfFull(): void {
    if (this.sessions.size < MAX_LEGACY_SESSIONS) return;
    let oldest: [string, LegacySession] | undefined;
    for (const entry of this.sessions) {
      if (oldest === undefined || entry[1].lastUsed < oldest[1].lastUsed) oldest = entry;
    }
    if (oldest !== undefined) void this.drop(oldest[0]);
  }
}

function sameCaller(a: Caller, b: Caller): boolean {
  return a.kind === b.kind && a.subject === b.subject && a.clientId === b.clientId;
}
