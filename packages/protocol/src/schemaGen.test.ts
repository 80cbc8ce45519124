/**
 * The committed JSON Schema is fresh, Prettier-stable, and (checked with ajv, independently of
 * zod) accepts what Codex 0.171 really sent and received for our methods.
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Ajv, type ValidateFunction } from 'ajv';
import { format, resolveConfig } from 'prettier';
import { describe, expect, it } from 'vitest';

import { clientRequests, serverNotifications, serverRequests } from './registry.js';
import { BUNDLE_FILE_NAME, GENERATED_COMMENT, generateSchemas, schemaTitle } from './schemaGen.js';
import { type Exchange, readTranscript } from './testing/transcripts.js';

const SCHEMA_DIR = fileURLToPath(new URL('../schema/json/', import.meta.url));
const generated = generateSchemas();

type JsonObject = Record<string, unknown>;
const fileJson = (name: string): JsonObject => {
  const text = generated.get(name);
  if (text === undefined) throw new Error(`${name} was not generated`);
  return JSON.parse(text) as JsonObject;
};

describe('generated JSON Schema', () => {
  it('is fresh', () => {
    const onDisk = existsSync(SCHEMA_DIR)
      ? readdirSync(SCHEMA_DIR).filter((n) => n.endsWith('.json'))
      : [];
    const problems: string[] = [];
    for (const name of onDisk) if (!generated.has(name)) problems.push(`stale file ${name}`);
    for (const [name, text] of generated) {
      if (!onDisk.includes(name)) problems.push(`missing ${name}`);
      else if (readFileSync(join(SCHEMA_DIR, name), 'utf8') !== text)
        problems.push(`outdated ${name}`);
    }
    if (problems.length > 0) {
      expect.fail(`JSON Schema is stale: run \`npm run gen:schema\`\n${problems.join('\n')}`);
    }
  });

  it('is laid out as Prettier would (so format:check needs no exception)', async () => {
    for (const [name, text] of generated) {
      const filepath = join(SCHEMA_DIR, name);
      const options = (await resolveConfig(filepath)) ?? {};
      expect(await format(text, { ...options, filepath }), name).toBe(text);
    }
  });

  it('has one file per registry type plus the bundle, each marked generated', () => {
    const titles = [
      ...Object.values(clientRequests).flatMap((s) => [s.params, s.result]),
      ...Object.values(serverRequests).flatMap((s) => [s.params, s.result]),
      ...Object.values(serverNotifications).map((s) => s.params),
    ].map((s) => `${schemaTitle(s)}.json`);
    expect([...generated.keys()]).toEqual(expect.arrayContaining([...titles, BUNDLE_FILE_NAME]));
    for (const name of generated.keys()) {
      expect(fileJson(name)['$comment'], name).toBe(GENERATED_COMMENT);
      expect(fileJson(name)['$schema'], name).toBe('http://json-schema.org/draft-07/schema#');
    }
  });

  it('bundles every method with its direction and resolvable $refs', () => {
    const bundle = fileJson(BUNDLE_FILE_NAME);
    const definitions = bundle['definitions'] as JsonObject;
    const methods = bundle['methods'] as JsonObject[];
    expect(
      methods.map((m) => `${String(m['direction'])} ${String(m['kind'])} ${String(m['method'])}`),
    ).toEqual([
      'clientToServer request initialize',
      'clientToServer request thread/start',
      'clientToServer request thread/sandboxState/update',
      'clientToServer request mcpServerStatus/list',
      'clientToServer request mcpServer/tool/call',
      'clientToServer request mcpServer/resource/read',
      'clientToServer request mcpServer/oauth/login',
      'clientToServer request mcpServer/oauth/login/submitRedirect',
      'clientToServer request mcpServer/oauth/logout',
      'clientToServer request config/mcpServer/reload',
      'clientToServer request mcpServer/tool/cancel',
      'clientToServer request history/list',
      'clientToServer request mcpServer/task/list',
      'clientToServer request mcpServer/task/result',
      'clientToServer request environment/list',
      'clientToServer request mcpServer/tool/search',
      'clientToServer request thread/toolView/get',
      'clientToServer notification initialized',
      'clientToServer notification $/cancelRequest',
      'serverToClient request mcpServer/elicitation/request',
      'serverToClient notification thread/started',
      'serverToClient notification mcpServer/startupStatus/updated',
      'serverToClient notification mcpServer/oauthLogin/completed',
      'serverToClient notification item/mcpToolCall/progress',
      'serverToClient notification item/started',
      'serverToClient notification item/completed',
      'serverToClient notification serverRequest/resolved',
    ]);
    const refs = JSON.stringify(bundle).match(/"#\/definitions\/[^"]+"/g) ?? [];
    for (const ref of refs)
      expect(definitions).toHaveProperty([ref.slice('"#/definitions/'.length, -1)]);
    const ajv = new Ajv({ strict: true, allowUnionTypes: true });
    for (const name of Object.keys(definitions)) {
      expect(() => ajv.compile({ definitions, $ref: `#/definitions/${name}` }), name).not.toThrow();
    }
  });
});

describe('generated JSON Schema accepts Codex 0.171 traffic (ajv)', () => {
  const ajv = new Ajv({ strict: true, allowUnionTypes: true, allErrors: true });
  const compiled = new Map<string, ValidateFunction>();
  const validator = (title: string, definition?: string): ValidateFunction => {
    const key = `${title}#${definition ?? ''}`;
    let v = compiled.get(key);
    if (v === undefined) {
      const json = fileJson(`${title}.json`);
      v = ajv.compile(
        definition === undefined
          ? json
          : { definitions: json['definitions'], $ref: `#/definitions/${definition}` },
      );
      compiled.set(key, v);
    }
    return v;
  };
  const accepts = (title: string, value: unknown, where: string, definition?: string) => {
    const v = validator(title, definition);
    expect(v(value) ? [] : v.errors, `${title} ${where}`).toEqual([]);
  };

  const exchanges = ['02-thread-basic.jsonl', '05-multi-env.jsonl'].flatMap(readTranscript);
  const of = (method: string, kind: Exchange['kind']) =>
    exchanges.filter((x) => x.method === method && x.kind === kind);
  const at = (x: Exchange) => `${x.file}#${x.seq}`;

  it('McpServerStatusUpdatedNotification', () => {
    const samples = of('mcpServer/startupStatus/updated', 'serverNotification');
    expect(samples.length).toBeGreaterThan(50);
    for (const x of samples) accepts('McpServerStatusUpdatedNotification', x.params, at(x));
    const v = validator('McpServerStatusUpdatedNotification');
    expect(v({ ...(samples[0]?.params as JsonObject), status: 'bogus' })).toBe(false);
  });

  it('ListMcpServerStatusResult and its McpServerStatus items', () => {
    const results = of('mcpServerStatus/list', 'clientRequest').filter(
      (x) => x.result !== undefined,
    );
    const items = results.flatMap((x) => (x.result as { data: unknown[] }).data);
    expect(items.length).toBeGreaterThan(20);
    for (const x of results) accepts('ListMcpServerStatusResult', x.result, at(x));
    for (const item of items) accepts('ListMcpServerStatusResult', item, 'item', 'McpServerStatus');
  });

  it('McpServerToolCallParams', () => {
    const calls = of('mcpServer/tool/call', 'clientRequest').filter(
      (x) => !x.error?.message.startsWith('Invalid request:'),
    );
    expect(calls.length).toBeGreaterThan(30);
    for (const x of calls) accepts('McpServerToolCallParams', x.params, at(x));
    expect(validator('McpServerToolCallParams')({ threadId: 't', server: 's' })).toBe(false);
  });

  it('McpResourceReadResult', () => {
    const reads = of('mcpServer/resource/read', 'clientRequest').filter(
      (x) => x.result !== undefined,
    );
    expect(reads.length).toBeGreaterThan(3);
    for (const x of reads) accepts('McpResourceReadResult', x.result, at(x));
  });

  it('every other params/result of our methods in the transcripts', () => {
    let checked = 0;
    for (const x of exchanges) {
      if (x.kind === 'clientRequest' && Object.hasOwn(clientRequests, x.method)) {
        const spec = clientRequests[x.method as keyof typeof clientRequests];
        if (!x.error?.message.startsWith('Invalid request:') && x.params !== undefined) {
          accepts(schemaTitle(spec.params), x.params, at(x));
          checked += 1;
        }
        if (x.result !== undefined && x.method !== 'thread/start') {
          accepts(schemaTitle(spec.result), x.result, at(x));
          checked += 1;
        }
      } else if (x.kind === 'serverRequest' && Object.hasOwn(serverRequests, x.method)) {
        const spec = serverRequests[x.method as keyof typeof serverRequests];
        accepts(schemaTitle(spec.params), x.params, at(x));
        if (x.result !== undefined) accepts(schemaTitle(spec.result), x.result, at(x));
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});
