#!/usr/bin/env node
// An MCP client for the official conformance scenarios, built only on @mcprt/runtime's public
// API (the built package): one streamable-HTTP registration at the URL the framework passes as
// the last argument; the scenario name comes from MCP_CONFORMANCE_SCENARIO.
import { loadConfig, Runtime } from '../../packages/runtime/dist/index.js';

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? 'initialize';

const config = loadConfig({
  file: '/nonexistent/mcprt-conformance/config.toml',
  text: `[mcp_servers.target]\nurl = ${JSON.stringify(url)}\nstartup_timeout_sec = 20\ntool_timeout_sec = 20\n`,
});
const runtime = new Runtime(config);
const session = runtime.startSession({
  // SEP-1034: accept with no content of our own; the runtime fills in the schema's defaults.
  onElicitation: async () => ({ action: 'accept', content: {} }),
});

async function main() {
  await session.ready();
  const status = session.status('target');
  if (status.connectionStatus !== 'connected') throw new Error(status.error ?? 'not connected');
  switch (scenario) {
    case 'tools_call':
      report(
        await session.callTool({
          server: 'target',
          tool: 'add_numbers',
          arguments: { a: 2, b: 3 },
        }),
      );
      break;
    case 'elicitation-sep1034-client-defaults':
      report(
        await session.callTool({
          server: 'target',
          tool: 'test_client_elicitation_defaults',
          arguments: {},
        }),
      );
      break;
    case 'sse-retry':
      report(
        await session.callTool({ server: 'target', tool: 'test_reconnection', arguments: {} }),
      );
      break;
    default:
      // `initialize` (and anything else): connecting and listing is the whole job.
      break;
  }
}

function report(result) {
  process.stdout.write(`${JSON.stringify(result)}\n`);
  if (result.isError) throw new Error('tool returned isError');
}

main()
  .then(async () => {
    await runtime.close();
    process.exit(0);
  })
  .catch(async (error) => {
    process.stderr.write(
      `conformance client (${scenario}): ${error instanceof Error ? error.message : String(error)}\n`,
    );
    await runtime.close();
    process.exit(1);
  });
