#!/usr/bin/env node
// An MCP client for the official conformance scenarios, built only on @mcprt/runtime's public
// API (the built package): one streamable-HTTP registration at the URL the framework passes as
// the last argument; the scenario name comes from MCP_CONFORMANCE_SCENARIO and client
// credentials (pre-registration, client credentials, cross-app access) from
// MCP_CONFORMANCE_CONTEXT. OAuth goes through the runtime: a registration that needs a login is
// `authenticationRequired`; `runtime.oauthLogin()` gives the authorization URL, which this client
// "opens" headlessly (the scenario's authorization server redirects at once) and delivers to the
// runtime's own loopback callback listener; the registration then reconnects by itself.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadConfig, Runtime } from '../../packages/runtime/dist/index.js';

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? 'initialize';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
// What the conformance authorization servers expect as a client ID metadata document URL.
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';
const MAX_LOGINS = 3;

const home = mkdtempSync(join(tmpdir(), 'mcprt-conformance-'));
const config = loadConfig({
  file: join(home, 'config.toml'),
  text: [
    'mcp_oauth_credentials_store = "file"',
    '[mcp_servers.target]',
    `url = ${JSON.stringify(url)}`,
    'startup_timeout_sec = 20',
    'tool_timeout_sec = 20',
    '',
  ].join('\n'),
});
const runtime = new Runtime(config, {
  home,
  oauth: {
    clientMetadataUrl: CIMD_URL,
    clients: () => hostClient(scenario, context),
    onWarning: (message) => process.stderr.write(`warning: ${message}\n`),
  },
});
const session = runtime.startSession({
  // SEP-1034: accept with no content of our own; the runtime fills in the schema's defaults.
  onElicitation: async () => ({ action: 'accept', content: {} }),
});
let logins = 0;

/** Credentials a host would supply for this scenario (never written to config.toml). */
function hostClient(name, ctx) {
  switch (name) {
    case 'auth/pre-registration':
      return { kind: 'pre_registered', clientId: ctx.client_id, clientSecret: ctx.client_secret };
    case 'auth/client-credentials-basic':
      return {
        kind: 'client_credentials',
        clientId: ctx.client_id,
        clientSecret: ctx.client_secret,
      };
    case 'auth/client-credentials-jwt':
      return {
        kind: 'private_key_jwt',
        clientId: ctx.client_id,
        privateKey: ctx.private_key_pem,
        algorithm: ctx.signing_algorithm,
      };
    case 'auth/cross-app-access-complete-flow':
      return {
        kind: 'cross_app_access',
        clientId: ctx.client_id,
        clientSecret: ctx.client_secret,
        identityProvider: {
          tokenEndpoint: ctx.idp_token_endpoint,
          clientId: ctx.idp_client_id,
          idToken: ctx.idp_id_token,
        },
      };
    default:
      return undefined;
  }
}

/** A browser that follows the authorization redirect and lands on the loopback callback. */
async function openInBrowser(authorizationUrl) {
  let next = authorizationUrl;
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(next, { redirect: 'manual' });
    await res.text();
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location) return;
    next = new URL(location, next).href;
  }
}

/** One OAuth login through the runtime; the registration reconnects when it is stored. */
async function login() {
  if (++logins > MAX_LOGINS) throw new Error(`gave up after ${MAX_LOGINS} logins`);
  const pending = await runtime.oauthLogin({ server: 'target', timeoutMs: 15_000 });
  await openInBrowser(pending.authorizationUrl);
  await pending.completed;
  await session.ready();
}

/** Connected, logging in while the registration says a login is needed. */
async function connect() {
  await session.ready();
  for (;;) {
    const status = session.status('target');
    if (status.connectionStatus === 'connected') return status;
    if (status.connectionStatus !== 'authenticationRequired')
      throw new Error(status.error ?? status.connectionStatus);
    await login();
  }
}

const isInsufficientScope = (error) => {
  for (let e = error; e; e = e.cause) if (/insufficient.scope/i.test(e.message ?? '')) return true;
  return false;
};

/** Call a tool; a 403 insufficient_scope is answered with a step-up login and one retry. */
async function call(tool, args) {
  for (;;) {
    try {
      return await session.callTool({ server: 'target', tool, arguments: args });
    } catch (error) {
      if (!isInsufficientScope(error)) throw error;
      await login();
      await connect();
    }
  }
}

async function main() {
  const status = await connect();
  switch (scenario) {
    case 'tools_call':
      report(await call('add_numbers', { a: 2, b: 3 }));
      break;
    case 'elicitation-sep1034-client-defaults':
      report(await call('test_client_elicitation_defaults', {}));
      break;
    case 'sse-retry':
      report(await call('test_reconnection', {}));
      break;
    default:
      // `initialize` and the auth scenarios: an authenticated request is the point; call every
      // tool once so per-operation authorization (step-up) is exercised too.
      if (scenario.startsWith('auth/'))
        for (const tool of status.tools) report(await call(tool.name, {}));
      break;
  }
}

function report(result) {
  process.stdout.write(`${JSON.stringify(result)}\n`);
  if (result.isError) throw new Error('tool returned isError');
}

async function finish(code) {
  await runtime.close();
  rmSync(home, { recursive: true, force: true });
  process.exit(code);
}

main().then(
  () => finish(0),
  (error) => {
    process.stderr.write(
      `conformance client (${scenario}): ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return finish(1);
  },
);
