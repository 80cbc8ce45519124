// Codex as the performance peer: installs `@openai/codex@0.171.0` into a cache outside the
// repository (never a project dependency) and finds its native binary in the platform package
// (`@openai/codex-<platform>/vendor/<target triple>/bin/codex`), not the Node launcher, which on
// Node < 22.15 stays as a parent process and would skew pid and RSS. `MCPRT_BENCH_CODEX_BIN`
// points at a binary directly.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { CACHE_DIR } from './paths.mjs';

export const CODEX_VERSION = '0.171.0';

export class CodexUnavailableError extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = 'CodexUnavailableError';
    this.code = 'codexUnavailable';
  }
}

/** Every `@openai/codex-*` package's native binaries under `prefix`. */
function findNativeBinaries(prefix) {
  const scope = join(prefix, 'node_modules', '@openai');
  if (!existsSync(scope)) return [];
  const found = [];
  for (const pkg of readdirSync(scope)) {
    if (!pkg.startsWith('codex-')) continue;
    const vendor = join(scope, pkg, 'vendor');
    if (!existsSync(vendor)) continue;
    for (const triple of readdirSync(vendor)) {
      for (const name of ['codex', 'codex.exe']) {
        const bin = join(vendor, triple, 'bin', name);
        if (existsSync(bin)) found.push(bin);
      }
    }
  }
  return found;
}

function versionOf(bin) {
  return execFileSync(bin, ['--version'], { encoding: 'utf8', timeout: 30_000 }).trim();
}

/** Install (once) and return `{bin, version}`; throws CodexUnavailableError saying what failed. */
export function ensureCodex(log = () => {}) {
  const override = process.env.MCPRT_BENCH_CODEX_BIN;
  if (override) {
    if (!existsSync(override)) {
      throw new CodexUnavailableError(`MCPRT_BENCH_CODEX_BIN=${override} does not exist`);
    }
    return { bin: override, version: versionOf(override) };
  }
  const prefix = join(CACHE_DIR, 'codex');
  let bins = findNativeBinaries(prefix);
  if (bins.length === 0) {
    mkdirSync(prefix, { recursive: true });
    log(`installing @openai/codex@${CODEX_VERSION} into ${prefix} (outside the repository)…`);
    try {
      execFileSync(
        'npm',
        [
          'install',
          '--prefix',
          prefix,
          '--no-audit',
          '--no-fund',
          '--loglevel=error',
          `@openai/codex@${CODEX_VERSION}`,
        ],
        { cwd: prefix, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', timeout: 600_000 },
      );
    } catch (error) {
      const detail = `${error.stderr ?? ''}${error.stdout ?? ''}`.trim() || error.message;
      throw new CodexUnavailableError(
        `npm install --prefix ${prefix} @openai/codex@${CODEX_VERSION} failed: ${detail}`,
        { cause: error },
      );
    }
    bins = findNativeBinaries(prefix);
  }
  if (bins.length === 0) {
    throw new CodexUnavailableError(
      `@openai/codex@${CODEX_VERSION} is installed in ${prefix}, but no native binary was found ` +
        `under node_modules/@openai/codex-*/vendor/*/bin/ (no platform package for ` +
        `${process.platform}-${process.arch}?)`,
    );
  }
  const bin = bins[0];
  let version;
  try {
    version = versionOf(bin);
  } catch (error) {
    throw new CodexUnavailableError(`${bin} --version failed: ${error.message}`, { cause: error });
  }
  if (!version.includes(CODEX_VERSION)) {
    throw new CodexUnavailableError(`${bin} is ${version}, expected ${CODEX_VERSION}`);
  }
  return { bin, version };
}
