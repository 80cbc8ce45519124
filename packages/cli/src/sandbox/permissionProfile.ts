/**
 * Codex's current `{permissionProfile, sandboxCwd}` shape: a `managed` profile with a
 * `restricted` file system (entries of `path`/`special` paths with `read`/`write`/`deny`) and
 * `network: restricted|enabled`. Special paths: `root`, `minimal`, `project_roots` (the sandbox
 * cwd, optional `subpath`), `tmpdir` (`$TMPDIR`), `slash_tmp`. Glob patterns, `unknown` special
 * paths, other profile or file-system types, and unknown fields are refused.
 */

import { isAbsolute, join, normalize, sep } from 'node:path';

import { unenforceable } from './errors.js';
import type { FsAccess, FsRule, LauncherContext, SandboxPlan } from './plan.js';
import { MINIMAL_PATHS } from './plan.js';
import { describe, object, oneOf, onlyKeys, string } from './reader.js';

const ACCESS: readonly FsAccess[] = ['read', 'write', 'deny'];
const SPECIAL_KINDS = ['root', 'minimal', 'project_roots', 'tmpdir', 'slash_tmp'] as const;

export function planFromPermissionProfile(
  raw: unknown,
  cwd: string,
  ctx: LauncherContext,
): SandboxPlan {
  const where = 'permissionProfile';
  const profile = object(raw, where);
  oneOf(profile['type'], ['managed'], `${where}.type`);
  onlyKeys(profile, ['type', 'file_system', 'network'], where);
  const network =
    profile['network'] === undefined
      ? 'restricted'
      : oneOf(profile['network'], ['restricted', 'enabled'], `${where}.network`);
  const fs = object(profile['file_system'], `${where}.file_system`);
  oneOf(fs['type'], ['restricted'], `${where}.file_system.type`);
  onlyKeys(fs, ['type', 'entries'], `${where}.file_system`);
  const entries = fs['entries'] ?? [];
  if (!Array.isArray(entries)) {
    throw unenforceable(`${where}.file_system.entries must be an array, got ${describe(entries)}`);
  }
  const rules = entries.flatMap((entry, i) =>
    ruleFromEntry(entry, `${where}.file_system.entries[${i}]`, cwd, ctx),
  );
  return { kind: 'bwrap', rules, network: network === 'enabled', cwd };
}

function ruleFromEntry(raw: unknown, where: string, cwd: string, ctx: LauncherContext): FsRule[] {
  const entry = object(raw, where);
  onlyKeys(entry, ['path', 'access'], where);
  const access = oneOf(entry['access'], ACCESS, `${where}.access`);
  return pathsOf(entry['path'], `${where}.path`, cwd, ctx).map((path) => ({
    path,
    access,
    origin: where,
  }));
}

function pathsOf(raw: unknown, where: string, cwd: string, ctx: LauncherContext): string[] {
  const path = object(raw, where);
  const type = oneOf(path['type'], ['path', 'special', 'glob_pattern'], `${where}.type`);
  if (type === 'glob_pattern') {
    throw unenforceable(`${where}: glob patterns are not supported by this launcher`);
  }
  if (type === 'path') {
    onlyKeys(path, ['type', 'path'], where);
    const value = string(path['path'], `${where}.path`);
    if (!isAbsolute(value)) {
      throw unenforceable(`${where}.path must be an absolute path, got \`${value}\``);
    }
    return [value];
  }
  onlyKeys(path, ['type', 'value'], where);
  const special = object(path['value'], `${where}.value`);
  const kind = oneOf(special['kind'], SPECIAL_KINDS, `${where}.value.kind`);
  if (kind !== 'project_roots') onlyKeys(special, ['kind'], `${where}.value`);
  switch (kind) {
    case 'root':
      return ['/'];
    case 'minimal':
      return [...MINIMAL_PATHS];
    case 'slash_tmp':
      return ['/tmp'];
    case 'tmpdir':
      return ctx.tmpdir === null ? [] : [ctx.tmpdir];
    case 'project_roots': {
      onlyKeys(special, ['kind', 'subpath'], `${where}.value`);
      if (special['subpath'] === undefined || special['subpath'] === null) return [cwd];
      return [join(cwd, subpath(special['subpath'], `${where}.value.subpath`))];
    }
  }
}

/** A relative path that stays inside the project root. */
function subpath(raw: unknown, where: string): string {
  const value = string(raw, where);
  const normal = normalize(value);
  if (isAbsolute(value) || normal === '..' || normal.startsWith(`..${sep}`)) {
    throw unenforceable(`${where} must be a relative path inside the project, got \`${value}\``);
  }
  return normal;
}
