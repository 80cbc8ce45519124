// What the tool-search bench and eval search over: the real servers' tools (realServers.mjs)
// registered in environments, as `mcprt serve` would index them — `always` names
// (`<env>__<server>__<tool>`) and definitions labelled the way views label them for a model
// (title `… (server@env)`, description `[server@env] …`, packages/runtime/src/views/toolView.ts)
// — plus the built index and token counter from packages/runtime/dist, and the results' JSON.
import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { REPO_ROOT, RUNTIME_DIST } from './paths.mjs';

/** The built modules (`npx tsc -b packages/runtime`). */
export async function loadViews() {
  const at = (file) => pathToFileURL(join(RUNTIME_DIST, 'views', file)).href;
  try {
    const [search, cost, meta] = await Promise.all([
      import(at('toolSearch.js')),
      import(at('toolCost.js')),
      import(at('metaTools.js')),
    ]);
    return { ...search, ...cost, ...meta };
  } catch (error) {
    throw new Error(
      `packages/runtime is not built (${error instanceof Error ? error.message : error}): run \`npx tsc -b packages/runtime\``,
    );
  }
}

const label = (server, env) => (env === null ? server : `${server}@${env}`);

/**
 * One tool of `server` in `env` as a view presents it: `labelled` (the default) as views label
 * definitions for a model, else the server's own definition under the new name.
 */
export function searchable(tool, server, env, envDescription, { labelled = true } = {}) {
  const name = env === null ? `${server}__${tool.name}` : `${env}__${server}__${tool.name}`;
  let definition = { ...tool, name };
  if (labelled) {
    const title = typeof tool.title === 'string' ? tool.title : tool.name;
    const text = typeof tool.description === 'string' ? tool.description.trim() : '';
    definition = {
      ...definition,
      title: `${title} (${label(server, env)})`,
      description: `[${label(server, env)}]${text === '' ? '' : ` ${text}`}`,
    };
  }
  return {
    searchable: {
      name,
      server,
      environmentId: env,
      environmentDescription: envDescription,
      tool: definition,
    },
    path: `${env ?? '-'}/${server}/${tool.name}`,
  };
}

/**
 * Every tool of every server in every environment: `environments` maps id → description,
 * `serverTools` maps server name → its listed tools. Returns the searchables and name → path.
 */
export function corpus(environments, serverTools, options) {
  const tools = [];
  const paths = new Map();
  for (const [env, description] of Object.entries(environments)) {
    for (const [server, list] of Object.entries(serverTools)) {
      for (const tool of list) {
        const { searchable: s, path } = searchable(tool, server, env, description, options);
        tools.push(s);
        paths.set(s.name, path);
      }
    }
  }
  return { tools, paths };
}

export function machine() {
  return {
    nproc: cpus().length,
    cpuModel: cpus()[0]?.model ?? null,
    memoryGb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
  };
}

export function packageVersion(...parts) {
  try {
    return JSON.parse(readFileSync(join(REPO_ROOT, ...parts, 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

/** Prettier-formatted JSON (the repository's format check covers bench/results too). */
export async function formatJson(value, file) {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  try {
    const prettier = await import('prettier');
    const config = (await prettier.resolveConfig(file)) ?? {};
    return await prettier.format(text, { ...config, parser: 'json' });
  } catch {
    return text;
  }
}

/** Where synthetic copies of the real servers run: id and description (`[environments.X]`). */
const PLACES = [
  ['buildbox', 'CI build machine that runs the test suite'],
  ['devbox', 'Developer workstation with the main project checkout'],
  ['sandbox', 'Isolated container for running untrusted code'],
  ['staging', 'Staging cluster that mirrors production'],
  ['prod-eu', 'Production hosts in the EU region, read-only for agents'],
  ['gpu-node', 'GPU machine for training and inference jobs'],
  ['laptop', "The user's own laptop"],
  ['data-lake', 'Analytics warehouse with the event tables'],
  ['edge', 'Edge gateway close to the customers'],
  ['release', 'Release machine that signs and publishes builds'],
];

/**
 * `size` tools made from the real servers' tools: the five servers replicated across
 * environments (ids and descriptions from PLACES, numbered past the tenth) under varied server
 * names, labelled as views label them, and cut at exactly `size`. `distinct`: every copy's
 * description also ends in a word of its own, so no two definitions are alike (the worst case:
 * as many different servers as copies).
 */
export function syntheticCorpus(serverTools, size, { distinct = false } = {}) {
  const tools = [];
  for (let r = 0; tools.length < size; r++) {
    const [place, description] = PLACES[r % PLACES.length];
    const env = r < PLACES.length ? place : `${place}-${Math.floor(r / PLACES.length)}`;
    for (const [base, list] of Object.entries(serverTools)) {
      const server = r % 3 === 0 ? base : `${base}-${r % 3}`;
      for (const tool of list) {
        if (tools.length === size) break;
        const own = distinct ? { ...tool, description: `${tool.description ?? ''} v${r}x` } : tool;
        tools.push(searchable(own, server, env, description).searchable);
      }
    }
  }
  return tools;
}
