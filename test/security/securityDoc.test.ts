/**
 * docs/security.md names, for every claim, the test that proves it (`file` › _test name_). This
 * keeps the page true: every cited file exists and contains a test of exactly that name.
 */

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { REPO_ROOT } from '../helpers/fixtures.js';

const doc = readFileSync(join(REPO_ROOT, 'docs/security.md'), 'utf8');

/** (file, test name) pairs: a backquoted path, then each `› _name_` that follows it. */
function citations(text: string): { file: string; name: string }[] {
  const flat = text.replace(/\s*\n\s*/g, ' ');
  const out: { file: string; name: string }[] = [];
  let file: string | null = null;
  const token = /`((?:test|packages)\/[^`]+\.test\.ts)`|› _((?:[^_\\]|\\.|_(?! |,|\.|;|\)|$))+)_/g;
  for (const m of flat.matchAll(token)) {
    if (m[1] !== undefined) file = m[1];
    else if (file !== null) out.push({ file, name: m[2]!.replace(/\\(.)/g, '$1') });
  }
  return out;
}

describe('docs/security.md', () => {
  const cited = citations(doc);

  it('cites tests', () => {
    expect(cited.length).toBeGreaterThan(40);
  });

  it('every cited test exists under that name', () => {
    const missing = cited.filter(({ file, name }) => {
      const path = join(REPO_ROOT, file);
      if (!existsSync(path)) return true;
      const source = readFileSync(path, 'utf8').replace(/\s*\n\s*/g, ' ');
      const quoted = [`'${name}'`, `"${name}"`, `\`${name}\``, `'${name.replace(/'/g, "\\'")}'`];
      return !quoted.some((q) => source.includes(q));
    });
    expect(missing).toEqual([]);
  });

  it('every file it cites exists', () => {
    for (const m of doc.matchAll(/`((?:test|packages)\/[^`]+\.test\.ts)`/g)) {
      expect(existsSync(join(REPO_ROOT, m[1]!)), m[1]).toBe(true);
    }
  });
});
