/**
 * Validation against Codex 0.171's own generated JSON Schemas (../shared/reference/
 * codex-0.171-schema), so wire compatibility is checked by Codex's contract, not ours.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Ajv } from 'ajv';

import { REPO_ROOT } from './fixtures.js';

export const SHARED_REFERENCE = join(REPO_ROOT, '..', 'shared', 'reference');

const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
const cache = new Map<string, ReturnType<Ajv['compile']>>();

/** Throws with ajv's errors when `value` does not match Codex's schema `name`. */
export function assertCodexSchema(name: string, value: unknown): void {
  let validate = cache.get(name);
  if (!validate) {
    const schema = JSON.parse(
      readFileSync(join(SHARED_REFERENCE, 'codex-0.171-schema', `${name}.json`), 'utf8'),
    ) as object;
    validate = ajv.compile(schema);
    cache.set(name, validate);
  }
  if (!validate(value)) {
    throw new Error(
      `${name} rejects ${JSON.stringify(value).slice(0, 500)}: ${ajv.errorsText(validate.errors)}`,
    );
  }
}
