// The repository stands alone: nothing in it reaches for the folder that sat beside the project's
// first checkout (reference material, a conformance script). A fresh clone has nothing beside it,
// so any such path is a test or tool that passes here and fails for everyone else. This scans
// every text file of the sources, tests, scripts and tooling, comments included.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

import { describe, expect, it } from 'vitest';

import { REPO_ROOT } from '../helpers/fixtures.js';

const ROOTS = ['packages', 'test', 'scripts', 'bench', 'examples', 'demo', '.ci'];
const TOP_FILES = ['package.json', 'vitest.config.ts', 'eslint.config.js', 'tsconfig.json'];
const SKIP_DIRS = new Set(['node_modules', 'dist', '.tmp', 'results', 'coverage']);
const TEXT = /\.(m?[jt]sx?|c?js|json|jsonl|toml|ya?ml|md|sh|txt)$|^run$/;

// Built from parts, so this file does not match itself.
const SIBLING = ['..', ['sha', 'red'].join('')];
const PATTERNS = [
  new RegExp(`\\.\\.[\\\\/]+${SIBLING[1]}(?=$|[\\\\/'"\`\\s)])`), // a path: <dotdot>/shared
  new RegExp(`['"]\\.\\.['"]\\s*,\\s*['"]${SIBLING[1]}['"]`), // join(…, '<dotdot>', 'shared')
];

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) yield* files(path);
    } else if (entry.isFile() && TEXT.test(entry.name)) yield path;
  }
}

/** `file:line: text` for every line that refers to the sibling folder. */
export function findSiblingReferences(paths: Iterable<string>): string[] {
  const hits: string[] = [];
  for (const path of paths) {
    if (statSync(path).size > 5_000_000) continue;
    readFileSync(path, 'utf8')
      .split('\n')
      .forEach((text, i) => {
        if (PATTERNS.some((p) => p.test(text)))
          hits.push(`${relative(REPO_ROOT, path)}:${i + 1}: ${text.trim()}`);
      });
  }
  return hits;
}

describe('the repository is self-contained', () => {
  it(`no file under ${ROOTS.join(', ')} refers to a folder beside the repository`, () => {
    const scanned = [
      ...ROOTS.flatMap((r) => [...files(join(REPO_ROOT, r))]),
      ...TOP_FILES.map((f) => join(REPO_ROOT, f)),
    ];
    expect(scanned.length).toBeGreaterThan(200);
    expect(findSiblingReferences(scanned)).toEqual([]);
  });

  it('the scan finds each form of such a reference', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'mcprt-scan-'));
    const sibling = SIBLING.join('/');
    const samples = [
      `const dir = '${sibling}/reference';`,
      `// read from ${sibling}/tools`,
      `join(REPO_ROOT, '${SIBLING[0]}', '${SIBLING[1]}', 'x')`,
      `resolve(root, "${SIBLING[0]}\\\\${SIBLING[1]}")`,
    ];
    const file = join(dir, 'sample.ts');
    const fine = `const fine = '${sibling}Thing/${sibling}-x';`; // other names that start alike
    writeFileSync(file, `${samples.join('\n')}\n${fine}\n`);
    expect(findSiblingReferences([file]).map((h) => h.replace(/^.*?:(\d+):.*$/, '$1'))).toEqual([
      '1',
      '2',
      '3',
      '4',
    ]);
  });
});
