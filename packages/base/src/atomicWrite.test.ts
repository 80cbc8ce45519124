import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { writeFileAtomicSync } from './atomicWrite.js';

const dir = () => mkdtempSync(join(tmpdir(), 'mcprt-atomic-'));

describe('writeFileAtomicSync', () => {
  it('creates the file with the given mode (default 0600) and leaves nothing else', () => {
    const d = dir();
    writeFileAtomicSync(join(d, 'a.json'), '{"a":1}\n');
    writeFileAtomicSync(join(d, 'b.toml'), 'x = 1\n', { mode: 0o644 });
    expect(readFileSync(join(d, 'a.json'), 'utf8')).toBe('{"a":1}\n');
    expect(statSync(join(d, 'a.json')).mode & 0o777).toBe(0o600);
    expect(statSync(join(d, 'b.toml')).mode & 0o777).toBe(0o644);
    expect(readdirSync(d).sort()).toEqual(['a.json', 'b.toml']);
  });

  it('replaces an existing file whole', () => {
    const d = dir();
    const file = join(d, 'c.txt');
    writeFileSync(file, 'old contents that are longer');
    writeFileAtomicSync(file, 'new');
    expect(readFileSync(file, 'utf8')).toBe('new');
  });

  it('leaves the target unchanged and no temporary file when beforeRename throws', () => {
    const d = dir();
    const file = join(d, 'd.txt');
    writeFileSync(file, 'original');
    expect(() =>
      writeFileAtomicSync(file, 'replacement', {
        beforeRename: () => {
          throw new Error('changed meanwhile');
        },
      }),
    ).toThrow('changed meanwhile');
    expect(readFileSync(file, 'utf8')).toBe('original');
    expect(readdirSync(d)).toEqual(['d.txt']);
  });

  it('throws the file system error for a missing directory', () => {
    expect(() => writeFileAtomicSync(join(dir(), 'no', 'such', 'f'), 'x')).toThrow(/ENOENT/);
  });
});
