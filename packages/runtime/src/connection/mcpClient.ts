/**
 * Where an MCP connection's SDK objects are made: the `Client` (identity, capabilities,
 * protocol-version negotiation) and its transport for a launch plan — a stdio process spawned
 * through the execution environment, or streamable HTTP, tunnelled through the environment when it
 * reaches HTTP on its side and authenticated with the runtime's OAuth credentials. Every option
 * the SDK takes for a connection is decided here and nowhere else.
 */

import type {
  FetchLike,
  Implementation,
  Transport,
  VersionNegotiationOptions,
} from '@modelcontextprotocol/client';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

import type { TransportAuth } from '../auth/transportAuth.js';
import type { ServerConfig } from '../config/types.js';
import type { ExecutionEnvironment } from '../environments/types.js';
import type { LaunchPlan } from '../launch/plan.js';
import { StdioProcessTransport } from '../launch/stdioTransport.js';
import { MAX_PAGES } from './paging.js';
import { versionNegotiation } from './protocolVersion.js';
import { schemaValidators } from './schemaValidators.js';
import { TASKS_EXTENSION } from './taskWire.js';

export const CLIENT_INFO: Implementation = { name: 'mcprt', title: 'mcprt', version: '0.1.0' };

/** Where an HTTP transport gets its OAuth (the runtime's `RuntimeAuth`). */
export interface ConnectionAuth {
  transport(config: ServerConfig, baseFetch: FetchLike): TransportAuth | null;
}

/**
 * How many input-required rounds (2026-07-28) one request may take: each round is answered by
 * the host (usually a person) before the request is sent again, so a server still asking after
 * this many is looping, and the call fails (requestErrors.ts names the limit).
 */
export const MAX_INPUT_REQUIRED_ROUNDS = 10;

/**
 * The SDK client of one connection attempt: form and URL elicitation (form defaults applied; on
 * 2026-07-28 also the elicitations embedded in input-required results, answered through the same
 * handler and bounded by {@link MAX_INPUT_REQUIRED_ROUNDS}), the protocol revision negotiated as
 * `protocol_version` says (protocolVersion.ts) unless the attempt's route says otherwise
 * (connectRoute.ts), and the SDK's whole-list walks allowed as many pages as ours (paging.ts).
 */
export function createClient(
  config: ServerConfig,
  negotiation: VersionNegotiationOptions = versionNegotiation(config),
): Client {
  return new Client(CLIENT_INFO, {
    // Tasks (taskWire.ts): a 2026 server may answer a call with one; 2025 tasks need no flag.
    capabilities: {
      elicitation: { form: { applyDefaults: true }, url: {} },
      extensions: { [TASKS_EXTENSION]: {} },
    },
    versionNegotiation: negotiation,
    inputRequired: { maxRounds: MAX_INPUT_REQUIRED_ROUNDS },
    listMaxPages: MAX_PAGES,
    // One bounded, text-keyed cache for the process: the SDK's default compiles each listed
    // outputSchema into an engine that keeps it for the client's life (schemaValidators.ts).
    jsonSchemaValidator: schemaValidators,
  });
}

/** The transport a launch plan asks for. */
export function buildTransport(
  config: ServerConfig,
  environment: ExecutionEnvironment,
  plan: LaunchPlan,
  auth: ConnectionAuth | undefined,
): Transport {
  if (plan.kind === 'stdio')
    return new StdioProcessTransport(environment, plan.spec, config.supervision?.maxMessageBytes);
  // An environment that tunnels HTTP (ssh) resolves the URL on its side through its fetch.
  const access = environment.http();
  const baseFetch = access.kind === 'tunnel' ? access.fetch : undefined;
  // OAuth (docs/auth.md): stored credentials, refreshed in time; never an interactive flow here.
  const oauth = auth?.transport(config, baseFetch ?? ((url, init) => fetch(url, init)));
  return new StreamableHTTPClientTransport(new URL(plan.url), {
    requestInit: { headers: plan.headers },
    ...(oauth
      ? {
          fetch: oauth.fetch,
          authProvider: oauth.authProvider,
          onInsufficientScope: 'throw' as const,
        }
      : baseFetch
        ? { fetch: baseFetch }
        : {}),
  });
}
