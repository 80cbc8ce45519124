/** Tests for the comment-preserving config editor (add/remove server) on real temp files. */

import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigParseError, ConfigWriteError } from '../errors.js';
import { addServerToFile, removeServerFromFile } from './edit.js';
import { loadConfig } from './load.js';

const root = mkdtempSync(join(tmpdir(), 'mcprt-edit-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let counter = 0;
/** A fresh directory holding `config.toml` with `text` (or no file when text is null). */
function fixture(text: string | null): string {
  const dir = join(root, `case-${counter++}`);
  mkdirSync(dir);
  const file = join(dir, 'config.toml');
  if (text !== null) writeFileSync(file, text);
  return file;
}

function read(file: string): string {
  return readFileSync(file, 'utf8');
}

function modeOf(file: string): number {
  return statSync(file).mode & 0o777;
}

function scopes(file: string): string[] {
  return loadConfig({ file }).servers.map((s) => `${s.scope.name}@${s.scope.environmentId ?? '-'}`);
}

/** Runs `fn`, expects a ConfigWriteError with exactly `message`, and the file bytes unchanged. */
function expectRefused(file: string, fn: () => unknown, message: string): void {
  const before = existsSync(file) ? readFileSync(file) : null;
  let error: unknown;
  try {
    fn();
  } catch (err) {
    error = err;
  }
  expect(error).toBeInstanceOf(ConfigWriteError);
  expect((error as ConfigWriteError).code).toBe('config_write');
  expect((error as ConfigWriteError).message).toBe(message);
  if (before === null) expect(existsSync(file)).toBe(false);
  else expect(readFileSync(file).equals(before)).toBe(true);
}

const ORIGINAL = [
  '# mcprt config',
  '# (hand-written; keep these comments)',
  'mcp_oauth_credentials_store = "file" # tokens on disk',
  '',
  '# Documentation server',
  '[mcp_servers.docs]',
  'command = "npx" # pinned below',
  'args = ["-y", "docs-mcp@1.2.3"]',
  '',
  '[mcp_servers.docs.env]',
  'LOG = "debug"',
  '',
  '# Figma, over HTTP',
  '[mcp_servers.figma]',
  'url = "https://mcp.figma.com/mcp"',
  '# bearer_token_env_var = "FIGMA_TOKEN"',
  '',
  '[environments.a]',
  'type = "ssh"',
  'host = "a.example"   # dev box',
  '',
  '[environments.a.mcp_servers.shared]',
  'command = "shared"',
  '',
  '[environments.b]',
  'type = "exec"',
  'program = "docker"',
  '',
  '[environments.b.mcp_servers.shared]',
  'command = "shared"',
  '',
].join('\n');

describe('addServerToFile', () => {
  it('creates the file (mode 0600) and its directory when missing', () => {
    const file = join(root, `new-${counter++}`, 'nested', 'config.toml');
    const text = addServerToFile(file, {
      scope: { environmentId: null, name: 'docs' },
      table: { command: 'node', args: ['x'], env: { K: 'V' } },
    });
    const expected = [
      '[mcp_servers.docs]',
      'command = "node"',
      'args = [ "x" ]',
      '',
      '[mcp_servers.docs.env]',
      'K = "V"',
      '',
    ].join('\n');
    expect(text).toBe(expected);
    expect(read(file)).toBe(expected);
    expect(modeOf(file)).toBe(0o600);
    expect(scopes(file)).toEqual(['docs@-']);
    expect(readdirSync(join(file, '..'))).toEqual(['config.toml']);
  });

  it('appends after existing content without touching a byte of it', () => {
    const file = fixture(ORIGINAL);
    const text = addServerToFile(file, {
      scope: { environmentId: null, name: 'search' },
      table: { url: 'http://127.0.0.1:8080/mcp', scopes: [] },
    });
    expect(text).toBe(
      `${ORIGINAL}\n[mcp_servers.search]\nurl = "http://127.0.0.1:8080/mcp"\nscopes = []\n`,
    );
    expect(read(file)).toBe(text);
    expect(scopes(file)).toEqual(['docs@-', 'figma@-', 'search@-', 'shared@a', 'shared@b']);
    const search = loadConfig({ file }).servers.find((s) => s.scope.name === 'search');
    expect(search?.scopes).toEqual([]);
  });

  it('adds a separating blank line when the file ends without one', () => {
    const file = fixture('[mcp_servers.a]\ncommand = "a"');
    expect(
      addServerToFile(file, { scope: { environmentId: null, name: 'b' }, table: { command: 'b' } }),
    ).toBe('[mcp_servers.a]\ncommand = "a"\n\n[mcp_servers.b]\ncommand = "b"\n');
  });

  it('adds an environment-contributed server under that environment', () => {
    const file = fixture(ORIGINAL);
    const text = addServerToFile(file, {
      scope: { environmentId: 'a', name: 'docs' },
      table: { command: 'docs', env_vars: [{ name: 'TOKEN', source: 'remote' }] },
    });
    expect(text).toBe(
      `${ORIGINAL}\n[environments.a.mcp_servers.docs]\ncommand = "docs"\n\n[[environments.a.mcp_servers.docs.env_vars]]\nname = "TOKEN"\nsource = "remote"\n`,
    );
    expect(scopes(file)).toEqual(['docs@-', 'figma@-', 'shared@a', 'docs@a', 'shared@b']);
    const docs = loadConfig({ file }).servers.find(
      (s) => s.scope.environmentId === 'a' && s.scope.name === 'docs',
    );
    expect(docs?.transport).toMatchObject({ envVars: [{ name: 'TOKEN', source: 'remote' }] });
    // The array-of-tables block goes with the server on removal.
    expect(removeServerFromFile(file, { environmentId: 'a', name: 'docs' })).toBe(ORIGINAL);
  });

  it('keeps the mode of an existing file and leaves no temp files', () => {
    const file = fixture('[mcp_servers.a]\ncommand = "a"\n');
    chmodSync(file, 0o640);
    addServerToFile(file, { scope: { environmentId: null, name: 'b' }, table: { command: 'b' } });
    expect(modeOf(file)).toBe(0o640);
    expect(readdirSync(join(file, '..'))).toEqual(['config.toml']);
  });

  it('edits the target of a symlinked config and keeps the link', () => {
    const real = fixture('[mcp_servers.a]\ncommand = "a"\n');
    const link = join(root, `link-${counter++}.toml`);
    symlinkSync(real, link);
    addServerToFile(link, { scope: { environmentId: null, name: 'b' }, table: { command: 'b' } });
    expect(statSync(link).isFile()).toBe(true);
    expect(read(real)).toBe('[mcp_servers.a]\ncommand = "a"\n\n[mcp_servers.b]\ncommand = "b"\n');
  });

  it('keeps CRLF line endings', () => {
    const original = '# crlf\r\n[mcp_servers.a]\r\ncommand = "a"\r\n';
    const file = fixture(original);
    const added = addServerToFile(file, {
      scope: { environmentId: null, name: 'b' },
      table: { command: 'b', args: ['1'] },
    });
    expect(added).toBe(`${original}\r\n[mcp_servers.b]\r\ncommand = "b"\r\nargs = [ "1" ]\r\n`);
    expect(removeServerFromFile(file, { environmentId: null, name: 'b' })).toBe(original);
  });

  describe('refusals leave the file untouched', () => {
    it('an existing thread-wide server', () => {
      const file = fixture(ORIGINAL);
      expectRefused(
        file,
        () =>
          addServerToFile(file, {
            scope: { environmentId: null, name: 'docs' },
            table: { command: 'x' },
          }),
        'MCP server `docs` already exists',
      );
    });

    it('an existing server in the environment', () => {
      const file = fixture(ORIGINAL);
      expectRefused(
        file,
        () =>
          addServerToFile(file, {
            scope: { environmentId: 'b', name: 'shared' },
            table: { command: 'x' },
          }),
        'MCP server `shared` already exists in environment `b`',
      );
    });

    it('an unknown environment', () => {
      const file = fixture(ORIGINAL);
      expectRefused(
        file,
        () =>
          addServerToFile(file, {
            scope: { environmentId: 'zzz', name: 'x' },
            table: { command: 'x' },
          }),
        'unknown environment id `zzz`',
      );
    });

    it('an invalid server name (Codex text)', () => {
      const file = fixture(ORIGINAL);
      expectRefused(
        file,
        () =>
          addServerToFile(file, {
            scope: { environmentId: null, name: 'my.server' },
            table: { command: 'x' },
          }),
        "Invalid MCP server name 'my.server': must match pattern ^[a-zA-Z0-9_-]+$",
      );
    });

    it('a table the loader would reject', () => {
      const file = fixture(ORIGINAL);
      expectRefused(
        file,
        () =>
          addServerToFile(file, {
            scope: { environmentId: null, name: 'bad' },
            table: { command: 'x', url: 'http://x', bearer_token: 'secret' },
          }),
        'invalid MCP server `bad`: mcp_servers.bad.url: url is not supported for stdio; mcp_servers.bad.bearer_token: bearer_token is not supported for stdio',
      );
    });

    it('a file whose servers are an inline table (appending would be invalid TOML)', () => {
      const file = fixture('mcp_servers = { a = { command = "a" } }\n');
      let error: unknown;
      const before = read(file);
      try {
        addServerToFile(file, {
          scope: { environmentId: null, name: 'b' },
          table: { command: 'b' },
        });
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(ConfigWriteError);
      expect((error as Error).message).toMatch(
        new RegExp(
          `^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: cannot add MCP server \`b\` safely: the result would not be valid TOML \\(.*\\); edit the file by hand$`,
        ),
      );
      expect(read(file)).toBe(before);
    });

    it('a file that is not valid TOML', () => {
      const file = fixture('[mcp_servers.a\n');
      expect(() =>
        addServerToFile(file, {
          scope: { environmentId: null, name: 'b' },
          table: { command: 'b' },
        }),
      ).toThrow(ConfigParseError);
      expect(read(file)).toBe('[mcp_servers.a\n');
    });
  });
});

describe('removeServerFromFile', () => {
  it('add then remove restores the file byte for byte', () => {
    const file = fixture(ORIGINAL);
    addServerToFile(file, {
      scope: { environmentId: null, name: 'search' },
      table: {
        command: 'search',
        args: ['--stdio'],
        env: { A: '1' },
        tools: { q: { approval_mode: 'prompt' } },
      },
    });
    addServerToFile(file, {
      scope: { environmentId: 'b', name: 'docs' },
      table: { url: 'http://127.0.0.1:1/mcp' },
    });
    expect(read(file)).not.toBe(ORIGINAL);
    removeServerFromFile(file, { environmentId: 'b', name: 'docs' });
    const text = removeServerFromFile(file, { environmentId: null, name: 'search' });
    expect(text).toBe(ORIGINAL);
    expect(read(file)).toBe(ORIGINAL);
  });

  it('removes a server and its sub-tables from the middle, keeping every comment', () => {
    const file = fixture(ORIGINAL);
    const text = removeServerFromFile(file, { environmentId: null, name: 'docs' });
    const expected = [
      '# mcprt config',
      '# (hand-written; keep these comments)',
      'mcp_oauth_credentials_store = "file" # tokens on disk',
      '',
      '# Documentation server',
      '# Figma, over HTTP',
      '[mcp_servers.figma]',
      'url = "https://mcp.figma.com/mcp"',
      '# bearer_token_env_var = "FIGMA_TOKEN"',
      '',
      '[environments.a]',
      'type = "ssh"',
      'host = "a.example"   # dev box',
      '',
      '[environments.a.mcp_servers.shared]',
      'command = "shared"',
      '',
      '[environments.b]',
      'type = "exec"',
      'program = "docker"',
      '',
      '[environments.b.mcp_servers.shared]',
      'command = "shared"',
      '',
    ].join('\n');
    expect(text).toBe(expected);
    expect(read(file)).toBe(expected);
    expect(scopes(file)).toEqual(['figma@-', 'shared@a', 'shared@b']);
  });

  it('removes only the named environment registration of a shared name', () => {
    const file = fixture(ORIGINAL);
    const text = removeServerFromFile(file, { environmentId: 'a', name: 'shared' });
    expect(text).toBe(
      ORIGINAL.replace('[environments.a.mcp_servers.shared]\ncommand = "shared"\n\n', ''),
    );
    expect(scopes(file)).toEqual(['docs@-', 'figma@-', 'shared@b']);
  });

  it('removes the last table of the file with the blank line before it', () => {
    const file = fixture(ORIGINAL);
    const text = removeServerFromFile(file, { environmentId: 'b', name: 'shared' });
    expect(text).toBe(
      ORIGINAL.replace('\n[environments.b.mcp_servers.shared]\ncommand = "shared"\n', ''),
    );
    expect(text.endsWith('program = "docker"\n')).toBe(true);
  });

  it('edits a file that starts with a byte-order mark, keeping the mark and every other byte', () => {
    const file = fixture(`\uFEFF${ORIGINAL}`);
    const text = removeServerFromFile(file, { environmentId: 'b', name: 'shared' });
    expect(text).toBe(
      `\uFEFF${ORIGINAL.replace('\n[environments.b.mcp_servers.shared]\ncommand = "shared"\n', '')}`,
    );
    expect(read(file)).toBe(text);
  });

  it('keeps the file mode', () => {
    const file = fixture(ORIGINAL);
    chmodSync(file, 0o666); // wider than the usual umask allows
    removeServerFromFile(file, { environmentId: null, name: 'figma' });
    expect(modeOf(file)).toBe(0o666);
  });

  describe('refusals leave the file untouched', () => {
    it('a missing server (Codex text)', () => {
      const file = fixture(ORIGINAL);
      expectRefused(
        file,
        () => removeServerFromFile(file, { environmentId: null, name: 'nope' }),
        "No MCP server named 'nope' found.",
      );
      expectRefused(
        file,
        () => removeServerFromFile(file, { environmentId: 'a', name: 'docs' }),
        "No MCP server named 'docs' found in environment `a`.",
      );
    });

    it('a missing file is not created', () => {
      const file = fixture(null);
      expectRefused(
        file,
        () => removeServerFromFile(file, { environmentId: null, name: 'docs' }),
        "No MCP server named 'docs' found.",
      );
    });

    it('a server written as an inline table', () => {
      const file = fixture('# keep\n[mcp_servers]\ndocs = { command = "x" }\n');
      expectRefused(
        file,
        () => removeServerFromFile(file, { environmentId: null, name: 'docs' }),
        `${file}:3:1: MCP server \`docs\` is defined as an inline table or with dotted keys, which mcprt cannot edit safely; edit the file by hand`,
      );
    });

    it('a server written with dotted keys', () => {
      const file = fixture('[mcp_servers]\ndocs.command = "x"\ndocs.args = []\n');
      expectRefused(
        file,
        () => removeServerFromFile(file, { environmentId: null, name: 'docs' }),
        `${file}:2:1: MCP server \`docs\` is defined as an inline table or with dotted keys, which mcprt cannot edit safely; edit the file by hand`,
      );
      const topLevel = fixture('a = 1\nmcp_servers.docs.command = "x"\n');
      expectRefused(
        topLevel,
        () => removeServerFromFile(topLevel, { environmentId: null, name: 'docs' }),
        `${topLevel}:2:13: MCP server \`docs\` is defined as an inline table or with dotted keys, which mcprt cannot edit safely; edit the file by hand`,
      );
    });

    it('an environment server inside an inline environment table', () => {
      const file = fixture(
        '[environments.a]\ntype = "exec"\nprogram = "p"\nmcp_servers = { x = { command = "x" } }\n',
      );
      expectRefused(
        file,
        () => removeServerFromFile(file, { environmentId: 'a', name: 'x' }),
        `${file}:4:17: MCP server \`x\` in environment \`a\` is defined as an inline table or with dotted keys, which mcprt cannot edit safely; edit the file by hand`,
      );
    });
  });

  it('does not mistake a header inside a multi-line string for a table', () => {
    const original = [
      '[mcp_servers.a]',
      'command = "a"',
      'args = ["""',
      '[mcp_servers.b]',
      '""", "x"]',
      '',
      '[mcp_servers.b]',
      'command = "b"',
      '',
    ].join('\n');
    const file = fixture(original);
    expect(removeServerFromFile(file, { environmentId: null, name: 'a' })).toBe(
      '[mcp_servers.b]\ncommand = "b"\n',
    );
  });
});
