// The tool-call fast paths lean on one MCP SDK version: the runtime's reaches private members of
// the SDK's `Client` (packages/runtime/src/connection/sdkInternals.ts) and copies its 2025 result
// rules and error texts; the gateway's copies the SDK server's acceptance rules and its 2026
// encoding (packages/gateway/src/fastPath*.ts). Each side exports `WRITTEN_AGAINST_SDK`. This
// test reads the installed @modelcontextprotocol/client, /server and /core (their package.json,
// resolved from the packages that depend on them) and fails on any other version, with a message
// naming every file to re-check and what to re-check in it.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';

import { describe, expect, it } from 'vitest';

import { WRITTEN_AGAINST_SDK as GATEWAY_PIN } from '../../packages/gateway/src/fastPathShapes.js';
import { WRITTEN_AGAINST_SDK as RUNTIME_PIN } from '../../packages/runtime/src/connection/sdkInternals.js';
import { REPO_ROOT } from '../helpers/fixtures.js';

const CLIENT = '@modelcontextprotocol/client';
const SERVER = '@modelcontextprotocol/server';
const CORE = '@modelcontextprotocol/core';
const SDK_INTERNALS = 'packages/runtime/src/connection/sdkInternals.ts';

/** The private `Client` members sdkInternals.ts calls (checked against the file below). */
const PRIVATE_CLIENT_MEMBERS = [
  '_envelopeOutbound',
  '_wireCodec',
  '_resolveNonCompleteResult',
  '_requestWithSchemaViaCodec',
];

interface Recheck {
  readonly file: string;
  readonly what: string;
}

const CLIENT_RECHECKS: readonly Recheck[] = [
  {
    file: SDK_INTERNALS,
    what: `the private Client members it calls still exist and behave as typed there (${PRIVATE_CLIENT_MEMBERS.join(', ')}), and the codec's decodeResult/validateResult answers`,
  },
  {
    file: 'packages/runtime/src/connection/toolResultShape.ts',
    what: 'the 2025-11-25 tools/call result rules copied from the SDK result schema (resultType dropped, content: [] when missing, known content blocks and their required fields, base64, object structuredContent and _meta, boolean isError)',
  },
  {
    file: 'packages/runtime/src/connection/fastToolCalls.ts',
    what: "the SDK's errors for a timeout, an abort, a JSON-RPC error and a closed transport (types, codes, 'Request timed out', 'Connection closed'), and parseJSONRPCMessage for the lines it passes on",
  },
  {
    file: 'packages/runtime/src/connection/outputValidators.ts',
    what: "the SDK's outputSchema checks: AjvJsonSchemaValidator, its texts and error codes for a schema that does not compile, a missing or a mismatched structuredContent",
  },
];

const SERVER_RECHECKS: readonly Recheck[] = [
  {
    file: 'packages/gateway/src/fastPathShapes.ts',
    what: "plainCall (the tools/call requests the SDK hands to its handler unchanged), looksLikeToolResult (the results its validation passes), withContent (content: [] added), errorBody (-32002 answered as -32602), resultLine/progressLine (serializeMessage's text)",
  },
  {
    file: 'packages/gateway/src/fastPathModern.ts',
    what: 'the envelope keys the SDK lifts off _meta (RESERVED_ENVELOPE_META_KEYS), and its 2026 tools/call encoding (stampResultType, stampServerInfoMeta, no cache fields on tools/call)',
  },
  {
    file: 'packages/gateway/src/fastPath.ts',
    what: 'that the SDK answers initialize before it accepts a tools/call, sends no answer to a cancelled request, and re-enters the handler with requestState (the legacy elicitation shim handover.ts relies on)',
  },
  {
    file: 'packages/gateway/src/stdioWire.ts',
    what: "the SDK's stdio framing (newline-delimited JSON, \\r\\n accepted, the 10 MiB line bound, closing on EOF) and deserializeMessage",
  },
];

const RECHECKS: Record<string, readonly Recheck[]> = {
  [CLIENT]: CLIENT_RECHECKS,
  [SERVER]: SERVER_RECHECKS,
  // Both sides' wire schemas and codecs live in core.
  [CORE]: [...CLIENT_RECHECKS, ...SERVER_RECHECKS],
};

const DIFFERENTIAL_TESTS = [
  'test/runtime/fastCalls.test.ts',
  'test/runtime/revision2026.test.ts',
  'test/gateway/fastPath.test.ts',
  'test/gateway/fastPathModern.test.ts',
];

export interface Installed {
  readonly name: string;
  readonly version: string;
  /** The package it was resolved from (for the message). */
  readonly from: string;
}

export interface Pins {
  /** sdkInternals.ts's WRITTEN_AGAINST_SDK: the client. */
  readonly runtime: string;
  /** fastPathShapes.ts's WRITTEN_AGAINST_SDK: the server. */
  readonly gateway: string;
}

const expectedFor = (name: string, pins: Pins): readonly string[] =>
  name === CLIENT
    ? [pins.runtime]
    : name === SERVER
      ? [pins.gateway]
      : [pins.runtime, pins.gateway];

/**
 * Null when every installed SDK package is the version the fast paths were written against;
 * else the message: what is installed, and for each package off its pin, the files to re-check
 * and what to re-check in each.
 */
export function sdkPinMessage(installed: readonly Installed[], pins: Pins): string | null {
  const off = installed.filter((p) => expectedFor(p.name, pins).some((v) => v !== p.version));
  if (off.length === 0) return null;
  const lines: string[] = [];
  const files = new Map<string, string>();
  for (const p of off) {
    const wanted = [...new Set(expectedFor(p.name, pins))].join(' / ');
    lines.push(
      `${p.name} ${p.version} is installed (resolved from ${p.from}); mcprt's tool-call fast paths were written against ${wanted}.`,
    );
    for (const r of RECHECKS[p.name] ?? []) files.set(r.file, r.what);
  }
  lines.push('Re-check, against the installed SDK:');
  for (const [file, what] of files) lines.push(`  - ${file}: ${what}`);
  lines.push(
    `Then run ${DIFFERENTIAL_TESTS.join(', ')}, and set WRITTEN_AGAINST_SDK in ${SDK_INTERNALS} and packages/gateway/src/fastPathShapes.ts (and the exact pins in packages/runtime and packages/gateway's package.json) to the new version.`,
  );
  return lines.join('\n');
}

/** The package.json of `name` as node resolves it from the package at `fromDir`. */
function installedFrom(name: string, fromDir: string): Installed & { dir: string } {
  // The SDK's `exports` do not list package.json: resolve its entry, then walk up to its root.
  let dir = dirname(createRequire(join(fromDir, 'package.json')).resolve(name));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version: string };
      if (pkg.name === name) {
        return { name, version: pkg.version, from: relative(REPO_ROOT, fromDir) || '.', dir };
      }
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json of ${name} above its entry point`);
    dir = up;
  }
}

function installedSdk(): Installed[] {
  const client = installedFrom(CLIENT, join(REPO_ROOT, 'packages/runtime'));
  const server = installedFrom(SERVER, join(REPO_ROOT, 'packages/gateway'));
  // Core as each side loads it (they may be two copies).
  return [client, server, installedFrom(CORE, client.dir), installedFrom(CORE, server.dir)];
}

const PINS: Pins = { runtime: RUNTIME_PIN, gateway: GATEWAY_PIN };

describe('the MCP SDK version the fast paths were written against', () => {
  it('is the installed @modelcontextprotocol/client, /server and /core', () => {
    const message = sdkPinMessage(installedSdk(), PINS);
    if (message !== null) throw new Error(message);
  });

  it('is what packages/runtime and packages/gateway depend on, exactly', () => {
    const deps = (pkg: string) =>
      (
        JSON.parse(readFileSync(join(REPO_ROOT, pkg, 'package.json'), 'utf8')) as {
          dependencies: Record<string, string>;
        }
      ).dependencies;
    expect(deps('packages/runtime')[CLIENT]).toBe(RUNTIME_PIN);
    expect(deps('packages/gateway')[SERVER]).toBe(GATEWAY_PIN);
  });

  it('fails loudly on any other version, naming the files and what to re-check', () => {
    const at = (client: string, server: string, core: string): Installed[] => [
      { name: CLIENT, version: client, from: 'packages/runtime' },
      { name: SERVER, version: server, from: 'packages/gateway' },
      { name: CORE, version: core, from: 'node_modules/@modelcontextprotocol/client' },
    ];
    expect(
      sdkPinMessage(at('2.4.0', '2.4.0', '2.4.0'), { runtime: '2.4.0', gateway: '2.4.0' }),
    ).toBeNull();

    const client = sdkPinMessage(at('2.4.1', '2.4.0', '2.4.0'), PINS)!;
    expect(client).toContain(
      `${CLIENT} 2.4.1 is installed (resolved from packages/runtime); mcprt's tool-call fast paths were written against ${RUNTIME_PIN}.`,
    );
    for (const member of PRIVATE_CLIENT_MEMBERS) expect(client).toContain(member);
    for (const r of CLIENT_RECHECKS) expect(client).toContain(`  - ${r.file}: ${r.what}`);
    for (const r of SERVER_RECHECKS) expect(client).not.toContain(`  - ${r.file}:`);
    expect(client).toContain('test/runtime/fastCalls.test.ts');

    const server = sdkPinMessage(at('2.4.0', '2.5.0', '2.4.0'), PINS)!;
    expect(server).toContain(`${SERVER} 2.5.0 is installed`);
    for (const r of SERVER_RECHECKS) expect(server).toContain(`  - ${r.file}: ${r.what}`);
    expect(server).toContain('RESERVED_ENVELOPE_META_KEYS');
    expect(server).not.toContain(`  - ${SDK_INTERNALS}:`);

    const core = sdkPinMessage(at('2.4.0', '2.4.0', '2.4.1'), PINS)!;
    for (const r of [...CLIENT_RECHECKS, ...SERVER_RECHECKS]) expect(core).toContain(r.file);

    // The two sides pinned apart: core cannot match both.
    expect(
      sdkPinMessage(at('2.4.0', '2.5.0', '2.4.0'), { runtime: '2.4.0', gateway: '2.5.0' }),
    ).toContain(`${CORE} 2.4.0 is installed`);
  });

  it('names every private Client member sdkInternals.ts declares, and files that exist', () => {
    const text = readFileSync(join(REPO_ROOT, SDK_INTERNALS), 'utf8');
    const block = /interface ClientInternals \{([\s\S]*?)\n\}/.exec(text)?.[1] ?? '';
    const declared = [...block.matchAll(/^\s+(_\w+)[<(]/gm)].map((m) => m[1]);
    expect(declared.sort()).toEqual([...PRIVATE_CLIENT_MEMBERS].sort());
    for (const r of [...CLIENT_RECHECKS, ...SERVER_RECHECKS]) {
      expect(existsSync(join(REPO_ROOT, r.file)), r.file).toBe(true);
    }
    for (const t of DIFFERENTIAL_TESTS) expect(existsSync(join(REPO_ROOT, t)), t).toBe(true);
  });
});
