/** Tests for the TOML position locator and scanner used by diagnostics and the editor. */

import { describe, expect, it } from 'vitest';
import { createLocator, locateKey, scanToml } from './locate.js';

const doc = [
  '# top comment', // 1
  'model = "o3"', // 2
  '', // 3
  '[mcp_servers.docs]', // 4
  'command = "node"', // 5
  '  args = ["a", "[not.a.header]"]', // 6
  '', // 7
  '[ mcp_servers . "quoted key" . env ]', // 8
  'K = "V"', // 9
  "['literal'.x]", // 10
  'nested.deep = 1', // 11
  'prompt = """', // 12
  '[mcp_servers.fake]', // 13
  'command = "inside a string"', // 14
  '"""', // 15
  "raw = '''", // 16
  '[mcp_servers.fake2]', // 17
  "'''", // 18
  'list = [', // 19
  '  "x", # [mcp_servers.fake3]', // 20
  '  { name = "A" },', // 21
  ']', // 22
  '[[profiles.entry]]', // 23
  'name = "p"', // 24
  '[mcp_servers]', // 25
  'inline = { command = "npx", url = "http://x" }', // 26
  '    [environments.dev.mcp_servers.x]', // 27
  'when = 1979-05-27 07:32:00Z', // 28
].join('\n');

describe('locateKey', () => {
  const at = createLocator(doc);

  it('finds table headers, with quoted and literal keys and spaces around dots', () => {
    expect(at(['mcp_servers', 'docs'])).toEqual({ line: 4, column: 1 });
    expect(at(['mcp_servers', 'quoted key', 'env'])).toEqual({ line: 8, column: 1 });
    expect(at(['literal', 'x'])).toEqual({ line: 10, column: 1 });
    expect(at(['profiles', 'entry'])).toEqual({ line: 23, column: 1 });
    expect(at(['environments', 'dev', 'mcp_servers', 'x'])).toEqual({ line: 27, column: 5 });
  });

  it('finds keys in a table, including indented and dotted keys', () => {
    expect(at(['model'])).toEqual({ line: 2, column: 1 });
    expect(at(['mcp_servers', 'docs', 'args'])).toEqual({ line: 6, column: 3 });
    expect(at(['mcp_servers', 'quoted key', 'env', 'K'])).toEqual({ line: 9, column: 1 });
    expect(at(['literal', 'x', 'nested'])).toEqual({ line: 11, column: 1 });
    expect(at(['literal', 'x', 'nested', 'deep'])).toEqual({ line: 11, column: 8 });
    expect(at(['environments', 'dev', 'mcp_servers', 'x', 'when'])).toEqual({
      line: 28,
      column: 1,
    });
  });

  it('points at keys inside an inline table', () => {
    expect(at(['mcp_servers', 'inline'])).toEqual({ line: 26, column: 1 });
    expect(at(['mcp_servers', 'inline', 'url'])).toEqual({ line: 26, column: 29 });
  });

  it('ignores header-like lines inside multi-line strings, arrays and comments', () => {
    expect(at(['mcp_servers', 'fake'])).toEqual({ line: 25, column: 1 });
    expect(at(['mcp_servers', 'fake2'])).toEqual({ line: 25, column: 1 });
    expect(at(['mcp_servers', 'fake3'])).toEqual({ line: 25, column: 1 });
    // The key after the multi-line values still belongs to [literal.x].
    expect(at(['literal', 'x', 'list'])).toEqual({ line: 19, column: 1 });
  });

  it('stops at array indices and points at the array key', () => {
    expect(at(['literal', 'x', 'list', 1, 'name'])).toEqual({ line: 19, column: 1 });
  });

  it('falls back to the enclosing table, a sub-table, then 1:1', () => {
    expect(at(['mcp_servers', 'docs', 'cwd'])).toEqual({ line: 4, column: 1 });
    expect(at(['mcp_servers', 'quoted key'])).toEqual({ line: 8, column: 1 });
    expect(at(['nothing', 'here'])).toEqual({ line: 1, column: 1 });
    expect(at([])).toEqual({ line: 1, column: 1 });
  });

  it('locateKey is the one-shot form', () => {
    expect(locateKey('a = 1\n[b]\nc = 2\n', ['b', 'c'])).toEqual({ line: 3, column: 1 });
  });

  it('handles CRLF line endings', () => {
    expect(locateKey('a = 1\r\n\r\n[b]\r\n  c = 2\r\n', ['b', 'c'])).toEqual({
      line: 4,
      column: 3,
    });
  });
});

describe('scanToml', () => {
  it('lists headers in order with array-table kinds, and comment offsets', () => {
    const text = '# c\n[a]\nx = 1 # trailing\n[[b]]\n';
    const scan = scanToml(text);
    expect(scan.entries.map((e) => [e.kind, e.path.join('.'), e.line])).toEqual([
      ['table', 'a', 2],
      ['key', 'a.x', 3],
      ['arrayTable', 'b', 4],
    ]);
    expect([...scan.commentOffsets]).toEqual([0, text.indexOf('# trailing')]);
  });

  it('marks keys written inside inline tables', () => {
    const scan = scanToml('s = { a = 1, b = { c = 2 } }\n');
    expect(scan.entries.map((e) => [e.path.join('.'), e.inline, e.column])).toEqual([
      ['s', false, 1],
      ['s.a', true, 7],
      ['s.b', true, 14],
      ['s.b.c', true, 20],
    ]);
  });

  it('decodes escapes in quoted keys', () => {
    const scan = scanToml('["a\\u0041\\"b"]\n');
    expect(scan.entries[0]?.path).toEqual(['aA"b']);
  });

  it('reads a file that starts with a byte-order mark, with offsets in the original text', () => {
    const text = '\uFEFF[mcp_servers.docs] # d\ncommand = "node"\n';
    const scan = scanToml(text);
    expect(scan.entries.map((e) => [e.path.join('.'), e.offset, e.line, e.column])).toEqual([
      ['mcp_servers.docs', 1, 1, 2],
      ['mcp_servers.docs.command', text.indexOf('command'), 2, 1],
    ]);
    expect([...scan.commentOffsets]).toEqual([text.indexOf('#')]);
  });

  it('refuses text that is not TOML; the locator then answers 1:1 instead of throwing', () => {
    expect(() => scanToml('[unclosed\n')).toThrow();
    expect(createLocator('[unclosed\n')(['unclosed'])).toEqual({ line: 1, column: 1 });
  });
});
