/**
 * The older `{sandboxPolicy: {type, ...}}` shape (Codex's `SandboxPolicy`): `readOnly`,
 * `workspaceWrite` (writable roots + the sandbox cwd, `/tmp` and `$TMPDIR` unless excluded,
 * `.git`/`.codex` inside writable roots kept read-only, as Codex does), `dangerFullAccess` and
 * `externalSandbox` (run as is). Unknown types and fields are refused.
 */

import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

import { unenforceable } from './errors.js';
import type { FsRule, LauncherContext, SandboxPlan } from './plan.js';
import type { JsonObject } from './reader.js';
import { describe, object, oneOf, onlyKeys, optionalBoolean, string } from './reader.js';

const TYPES = ['readOnly', 'workspaceWrite', 'dangerFullAccess', 'externalSandbox'] as const;
const PROTECTED_IN_WRITABLE_ROOTS = ['.git', '.codex'];

export function planFromSandboxPolicy(
  raw: unknown,
  cwd: string,
  ctx: LauncherContext,
): SandboxPlan {
  const where = 'sandboxPolicy';
  const policy = object(raw, where);
  const type = oneOf(policy['type'], TYPES, `${where}.type`);
  const root: FsRule = { path: '/', access: 'read', origin: `${where} (${type})` };
  switch (type) {
    case 'dangerFullAccess':
      onlyKeys(policy, ['type'], where);
      return { kind: 'unsandboxed', policy: type, cwd };
    case 'externalSandbox':
      onlyKeys(policy, ['type', 'networkAccess'], where);
      if (policy['networkAccess'] !== undefined) {
        oneOf(policy['networkAccess'], ['restricted', 'enabled'], `${where}.networkAccess`);
      }
      return { kind: 'unsandboxed', policy: type, cwd };
    case 'readOnly':
      onlyKeys(policy, ['type', 'networkAccess'], where);
      return {
        kind: 'bwrap',
        rules: [root],
        network: optionalBoolean(policy, 'networkAccess', where) ?? false,
        cwd,
      };
    case 'workspaceWrite':
      return workspaceWrite(policy, root, cwd, ctx);
  }
}

function workspaceWrite(
  policy: JsonObject,
  root: FsRule,
  cwd: string,
  ctx: LauncherContext,
): SandboxPlan {
  const where = 'sandboxPolicy';
  onlyKeys(
    policy,
    ['type', 'writableRoots', 'networkAccess', 'excludeTmpdirEnvVar', 'excludeSlashTmp'],
    where,
  );
  const roots: string[] = [cwd];
  const listed = policy['writableRoots'] ?? [];
  if (!Array.isArray(listed)) {
    throw unenforceable(`${where}.writableRoots must be an array, got ${describe(listed)}`);
  }
  listed.forEach((item, i) => {
    const path = string(item, `${where}.writableRoots[${i}]`);
    if (!isAbsolute(path)) {
      throw unenforceable(`${where}.writableRoots[${i}] must be an absolute path, got \`${path}\``);
    }
    roots.push(path);
  });
  if (optionalBoolean(policy, 'excludeSlashTmp', where) !== true) roots.push('/tmp');
  if (optionalBoolean(policy, 'excludeTmpdirEnvVar', where) !== true && ctx.tmpdir !== null) {
    roots.push(ctx.tmpdir);
  }
  const rules: FsRule[] = [root];
  for (const path of roots) {
    rules.push({ path, access: 'write', origin: `${where}.writableRoots` });
    for (const name of PROTECTED_IN_WRITABLE_ROOTS) {
      const inner = join(path, name);
      if (existsSync(inner)) {
        rules.push({ path: inner, access: 'read', origin: `${where} (protected ${name})` });
      }
    }
  }
  return {
    kind: 'bwrap',
    rules,
    network: optionalBoolean(policy, 'networkAccess', where) ?? false,
    cwd,
  };
}
