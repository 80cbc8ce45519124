#!/usr/bin/env node
// An MCP client for the official conformance scenarios, built only on @mcprt/runtime's public
// API (the built package): one streamable-HTTP registration at the URL the framework passes as
// the last argument; the scenario name comes from MCP_CONFORMANCE_SCENARIO, the revision to
// speak from MCP_CONFORMANCE_PROTOCOL_VERSION (→ `protocol_version`, see below) and
// credentials (pre-registration, client credentials, workload identity, enterprise-managed
// authorization) from MCP_CONFORMANCE_CONTEXT. Everything the runtime needs is in its
// config.toml, as a host would write it: secrets never are — the config names the environment
// variable or the 0600 file that holds each one. OAuth goes through the runtime: a registration
// that needs a login is `authenticationRequired`; `runtime.oauthLogin()` gives the
// authorization URL, which this client "opens" headlessly (the scenario's authorization server
// redirects at once) and delivers to the runtime's own loopback callback listener; the
// registration then reconnects by itself. 2026-07-28 input-required rounds reach the session's
// ordinary `onElicitation` handler.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadConfig, Runtime } from '../../packages/runtime/dist/index.js';

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? 'initialize';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
const requested = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;
// What the conformance authorization servers expect as a client ID metadata document URL.
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';
const MAX_LOGINS = 3;

const home = mkdtempSync(join(tmpdir(), 'mcprt-conformance-'));
const env = { ...process.env };

/** A secret in a 0600 file the config names. */
function secretFile(name, value) {
  const file = join(home, name);
  writeFileSync(file, value, { mode: 0o600 });
  return file;
}

/** A secret in an environment variable of the runtime's process the config names. */
function secretVar(name, value) {
  env[name] = value;
  return name;
}

/** `[mcp_servers.target.oauth]` lines a host would write for this scenario. */
function oauthTable(name, ctx) {
  const q = JSON.stringify;
  switch (name) {
    case 'auth/pre-registration':
      return [
        `client_id = ${q(ctx.client_id)}`,
        `client_secret_env_var = ${q(secretVar('TARGET_CLIENT_SECRET', ctx.client_secret))}`,
      ];
    case 'auth/client-credentials-basic':
      return [
        'grant = "client_credentials"',
        `client_id = ${q(ctx.client_id)}`,
        `client_secret_env_var = ${q(secretVar('TARGET_CLIENT_SECRET', ctx.client_secret))}`,
      ];
    case 'auth/client-credentials-jwt':
      return [
        'grant = "client_credentials"',
        `client_id = ${q(ctx.client_id)}`,
        `private_key_file = ${q(secretFile('client-key.pem', ctx.private_key_pem))}`,
        ...(ctx.signing_algorithm ? [`signing_algorithm = ${q(ctx.signing_algorithm)}`] : []),
      ];
    case 'auth/wif-jwt-bearer':
      return [
        'grant = "workload_identity"',
        `client_id = ${q(ctx.client_id)}`,
        `assertion_file = ${q(secretFile('workload.jwt', ctx.valid_jwt))}`,
      ];
    case 'auth/cross-app-access-complete-flow':
    case 'auth/enterprise-managed-authorization':
      return [
        'grant = "enterprise_managed"',
        `client_id = ${q(ctx.client_id)}`,
        `client_secret_env_var = ${q(secretVar('TARGET_CLIENT_SECRET', ctx.client_secret))}`,
        '[mcp_servers.target.oauth.identity_provider]',
        `token_endpoint = ${q(ctx.idp_token_endpoint)}`,
        `client_id = ${q(ctx.idp_client_id)}`,
        `id_token_file = ${q(secretFile('id-token.jwt', ctx.idp_id_token))}`,
      ];
    default:
      return [];
  }
}

/**
 * The revision the framework asks for, as `protocol_version`: a dated 2025 revision is the
 * legacy handshake; 2026-07-28 (and no request) is `auto` — `server/discover` first, so a server
 * that speaks 2026-07-28 is spoken to in it, and a 2025-only scenario server (`initialize`,
 * `sse-retry`, … forced to 2026 with `--force`) still gets the handshake it knows.
 */
function protocolVersion(version) {
  return version !== undefined && version < '2026-07-28' ? '2025-11-25' : 'auto';
}

const oauth = oauthTable(scenario, context);
const config = loadConfig({
  file: join(home, 'config.toml'),
  strict: true,
  text: [
    'mcp_oauth_credentials_store = "file"',
    '[mcp_servers.target]',
    `url = ${JSON.stringify(url)}`,
    `protocol_version = ${JSON.stringify(protocolVersion(requested))}`,
    'startup_timeout_sec = 20',
    'tool_timeout_sec = 20',
    ...(oauth.length > 0 ? ['[mcp_servers.target.oauth]', ...oauth] : []),
    '',
  ].join('\n'),
});
const runtime = new Runtime(config, {
  home,
  processEnv: env,
  oauth: {
    clientMetadataUrl: CIMD_URL,
    onWarning: (message) => process.stderr.write(`warning: ${message}\n`),
  },
});
const session = runtime.startSession({
  // SEP-1034: accept with no content of our own; the runtime fills in the schema's defaults.
  // 2026-07-28 input-required rounds arrive here too.
  onElicitation: async () => ({ action: 'accept', content: {} }),
});
let logins = 0;

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

/** Call a tool whose failure the scenario expects (logged, not fatal). */
async function callTolerating(tool, args) {
  try {
    report(await call(tool, args));
  } catch (error) {
    process.stderr.write(`${tool}: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}

/** SEP-2640: a host lists skills without reading them, and loads one only when it needs it. */
async function skills(load) {
  const { skills: entries } = await session.listSkills({ server: 'target' });
  process.stdout.write(`${JSON.stringify(entries.map((s) => s.uri))}\n`);
  if (!load) return;
  for (const skill of entries) {
    // SKILL.md first: a file that fails verification throws, and nothing more is read.
    const manifest = await session.readSkillFile({ server: 'target', skill });
    process.stdout.write(`${JSON.stringify(manifest.frontmatter)}\n`);
    const files = skill.resources === 'dynamic' ? [] : skill.resources;
    for (const file of files.filter((f) => f.uri !== skill.uri))
      await session.readSkillFile({ server: 'target', skill, path: file.uri });
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
    case 'sep-2322-client-request-state':
      for (const tool of ['test_mrtr_echo_state', 'test_mrtr_no_state', 'test_mrtr_unrelated'])
        report(await call(tool, {}));
      // A result without `resultType` is complete (never retried); the SDK refuses it locally.
      await callTolerating('test_mrtr_no_result_type', {});
      break;
    case 'http-standard-headers':
      for (const tool of status.tools) report(await call(tool.name, {}));
      for (const resource of status.resources)
        await session.readResource({ server: 'target', uri: resource.uri });
      break;
    case 'http-custom-headers':
      for (const { name, arguments: args } of context.toolCalls ?? [])
        report(await call(name, args));
      break;
    case 'http-invalid-tool-headers':
      // The runtime lists only the valid tools; call each one.
      for (const tool of status.tools) await callTolerating(tool.name, { region: 'us-west1' });
      break;
    case 'json-schema-2020-12-preservation': {
      const focal = status.tools.find((t) => t.name === 'json_schema_2020_12_tool');
      if (!focal) throw new Error('json_schema_2020_12_tool is not listed');
      report(await call('json_schema_echo', { schema: focal.inputSchema }));
      break;
    }
    case 'sep-2640-client-no-prefetch':
      await skills(false);
      break;
    case 'sep-2640-client-verify-digest':
    case 'sep-2640-client-verify-size':
    case 'sep-2640-client-verify-frontmatter':
      await skills(true);
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
