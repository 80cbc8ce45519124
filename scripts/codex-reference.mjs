#!/usr/bin/env node
// `npm run codex:reference [-- --check]`: regenerate Codex 0.171's JSON Schemas for the methods
// mcprt mirrors into test/fixtures/codex-0.171/schema/, from Codex itself. Codex is installed
// once, outside the repository, by the same code the benchmark uses (bench/lib/codex.mjs:
// `npm install --prefix ~/.cache/mcprt-bench/codex @openai/codex@0.171.0`); its native binary
// then runs `codex app-server generate-json-schema --out <tmp>`, and the files we mirror are
// copied byte for byte. `--check` compares instead of writing and exits 1 on any difference.
// The committed files are what the tests read; this script is how anyone refreshes them.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { CodexUnavailableError, ensureCodex } from '../bench/lib/codex.mjs';

const REPO_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
export const SCHEMA_DIR = join(REPO_ROOT, 'test', 'fixtures', 'codex-0.171', 'schema');

/** The schemas of the methods mcprt mirrors (params, results, notifications), by file name. */
export const MIRRORED = [
  'ItemCompletedNotification',
  'ItemStartedNotification',
  'ListMcpServerStatusParams',
  'ListMcpServerStatusResponse',
  'McpResourceReadParams',
  'McpResourceReadResponse',
  'McpServerElicitationRequestParams',
  'McpServerElicitationRequestResponse',
  'McpServerOauthLoginCompletedNotification',
  'McpServerOauthLoginParams',
  'McpServerOauthLoginResponse',
  'McpServerRefreshResponse',
  'McpServerStatusUpdatedNotification',
  'McpServerToolCallParams',
  'McpServerToolCallResponse',
  'McpToolCallProgressNotification',
  'ThreadStartParams',
  'ThreadStartResponse',
  'ThreadStartedNotification',
];

/** Every file under `dir`, by base name (Codex writes v1 names at the top and v2 in `v2/`). */
function filesByName(dir) {
  const out = new Map();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath ?? entry.path, entry.name);
    const list = out.get(entry.name) ?? [];
    list.push(path);
    out.set(entry.name, list);
  }
  return out;
}

function main() {
  const check = process.argv.includes('--check');
  const unknown = process.argv.slice(2).filter((a) => a !== '--check');
  if (unknown.length > 0) {
    console.error(`codex:reference: unknown argument ${unknown[0]} (usage: [--check])`);
    return 2;
  }
  let codex;
  try {
    codex = ensureCodex((line) => console.error(line));
  } catch (error) {
    if (!(error instanceof CodexUnavailableError)) throw error;
    console.error(`codex:reference: ${error.message}`);
    return 1;
  }
  const out = mkdtempSync(join(tmpdir(), 'mcprt-codex-schema-'));
  // An empty CODEX_HOME: the schema does not depend on anyone's config.
  const home = mkdtempSync(join(tmpdir(), 'mcprt-codex-home-'));
  try {
    const run = spawnSync(codex.bin, ['app-server', 'generate-json-schema', '--out', out], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, CODEX_HOME: home },
    });
    if (run.status !== 0) {
      console.error(
        `codex:reference: ${codex.bin} app-server generate-json-schema failed ` +
          `(${run.error?.message ?? `exit ${run.status}`}): ${run.stderr.trim()}`,
      );
      return 1;
    }
    const generated = filesByName(out);
    const problems = [];
    let changed = 0;
    if (!check) mkdirSync(SCHEMA_DIR, { recursive: true });
    for (const name of MIRRORED) {
      const found = generated.get(`${name}.json`) ?? [];
      if (found.length !== 1) {
        problems.push(`${name}.json: Codex generated ${found.length} files of that name`);
        continue;
      }
      const text = readFileSync(found[0]);
      const target = join(SCHEMA_DIR, `${name}.json`);
      const same = existsSync(target) && readFileSync(target).equals(text);
      if (same) continue;
      changed += 1;
      if (check) problems.push(`${relative(REPO_ROOT, target)} differs from Codex's`);
      else writeFileSync(target, text);
    }
    if (existsSync(SCHEMA_DIR)) {
      for (const file of readdirSync(SCHEMA_DIR)) {
        if (!MIRRORED.includes(file.replace(/\.json$/, '')))
          problems.push(`${relative(REPO_ROOT, join(SCHEMA_DIR, file))} is not a mirrored schema`);
      }
    }
    for (const p of problems) console.error(`codex:reference: ${p}`);
    const what = check ? 'differ' : 'updated';
    console.log(
      `codex:reference: ${codex.version}: ${MIRRORED.length} schemas, ${changed} ${what}` +
        ` (${relative(REPO_ROOT, SCHEMA_DIR)})`,
    );
    return problems.length > 0 ? 1 : 0;
  } finally {
    rmSync(out, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

process.exitCode = main();
