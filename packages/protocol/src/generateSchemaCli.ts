/**
 * `npm run gen:schema`: writes `generateSchemas()` to `packages/protocol/schema/json/` and
 * deletes stale `*.json` files there. `--experimental` includes experimental methods.
 */

import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { generateSchemas } from './schemaGen.js';

/** `schema/json/` of this package, from `dist/` or `src/`. */
export const SCHEMA_DIR = fileURLToPath(new URL('../schema/json/', import.meta.url));

function main(argv: readonly string[]): void {
  const files = generateSchemas({ experimental: argv.includes('--experimental') });
  mkdirSync(SCHEMA_DIR, { recursive: true });
  let written = 0;
  let removed = 0;
  for (const name of readdirSync(SCHEMA_DIR)) {
    if (name.endsWith('.json') && !files.has(name)) {
      rmSync(join(SCHEMA_DIR, name));
      removed += 1;
    }
  }
  for (const [name, text] of files) {
    const path = join(SCHEMA_DIR, name);
    let old: string | undefined;
    try {
      old = readFileSync(path, 'utf8');
    } catch {
      old = undefined;
    }
    if (old !== text) {
      writeFileSync(path, text);
      written += 1;
    }
  }
  process.stdout.write(
    `gen:schema: ${files.size} files in ${SCHEMA_DIR} (${written} written, ${removed} removed)\n`,
  );
}

main(process.argv.slice(2));
