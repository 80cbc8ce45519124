// The conformance framework's toolchain, in a cache outside the repository: Node 22 (the
// framework dies at import on Node 20) from the npm package `node-<platform>-<arch>@22`, and the
// pinned `@modelcontextprotocol/conformance` version, each installed once into its own folder.
// An install goes into a fresh temporary folder that is then renamed into place, so concurrent
// runs never see half an install (the loser of a race throws its copy away). Node 22's compile
// cache for the framework lives beside them (`compile-cache/`).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const DEFAULT_FRAMEWORK = '0.1.16';
/** The first framework version that ships requirement sets (requirements/<revision>.yaml). */
export const REQUIREMENTS_FRAMEWORK = '0.2.0-alpha.12';
export const NODE_MAJOR = 22;

export class ToolchainError extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = 'ToolchainError';
    this.code = 'conformanceToolchain';
  }
}

/** `$CONFORMANCE_CACHE`, else `$XDG_CACHE_HOME/mcprt-conformance`, else `~/.cache/…`. */
export function cacheRoot(env = process.env) {
  if (env.CONFORMANCE_CACHE) return env.CONFORMANCE_CACHE;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'mcprt-conformance');
}

function nodePackage() {
  const arch = { x64: 'x64', arm64: 'arm64' }[process.arch];
  if (!arch || !['linux', 'darwin'].includes(process.platform))
    throw new ToolchainError(
      `no Node ${NODE_MAJOR} package for ${process.platform}-${process.arch}`,
    );
  return `node-${process.platform}-${arch}`;
}

/** How to run npm: the npm running us (`npm run conformance`), else `npm` on PATH. */
function npmCommand(env) {
  const cli = env.npm_execpath;
  if (cli && /npm-cli\.c?js$/.test(cli) && existsSync(cli)) return [process.execPath, [cli]];
  return ['npm', []];
}

/** `npm install` `specs` into `dir` (atomically: a temporary sibling renamed into place). */
function install(dir, specs, log, env) {
  mkdirSync(join(dir, '..'), { recursive: true });
  const tmp = mkdtempSync(`${dir}.tmp-`);
  try {
    writeFileSync(join(tmp, 'package.json'), '{"name":"mcprt-conformance-cache","private":true}\n');
    log(`conformance: installing ${specs.join(' ')} into ${dir} (once)`);
    const [cmd, pre] = npmCommand(env);
    const run = spawnSync(
      cmd,
      [...pre, 'install', '--prefix', tmp, '--no-audit', '--no-fund', '--loglevel=error', ...specs],
      { cwd: tmp, encoding: 'utf8', timeout: 600_000, env },
    );
    if (run.status !== 0) {
      const why = run.error?.message ?? `${run.stderr}${run.stdout}`.trim();
      throw new ToolchainError(`npm install ${specs.join(' ')} into ${dir} failed: ${why}`);
    }
    try {
      renameSync(tmp, dir);
    } catch (error) {
      // Another run installed it first: keep theirs.
      if (!existsSync(dir)) throw error;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function nodeMajor(bin) {
  const run = spawnSync(bin, ['-p', 'process.versions.node'], { encoding: 'utf8' });
  return run.status === 0 ? Number(run.stdout.trim().split('.')[0]) : null;
}

/**
 * Node 22 and the framework `version`, installed on first use.
 * @returns {{ node: string, framework: string, packageDir: string, version: string,
 *   compileCache: string }}
 */
export function ensureToolchain(version, { log = () => {}, env = process.env } = {}) {
  const root = cacheRoot(env);
  const pkg = nodePackage();
  const nodeDir = join(root, `node-${NODE_MAJOR}`);
  const node = join(nodeDir, 'node_modules', pkg, 'bin', 'node');
  if (!existsSync(node) || nodeMajor(node) !== NODE_MAJOR) {
    rmSync(nodeDir, { recursive: true, force: true });
    install(nodeDir, [`${pkg}@${NODE_MAJOR}`], log, env);
  }
  if (nodeMajor(node) !== NODE_MAJOR)
    throw new ToolchainError(`${node} is not a working Node ${NODE_MAJOR}`);
  const frameworkDir = join(root, `framework-${version}`);
  const packageDir = join(frameworkDir, 'node_modules', '@modelcontextprotocol', 'conformance');
  const framework = join(packageDir, 'dist', 'index.js');
  if (!existsSync(framework) || installedVersion(packageDir) !== version) {
    rmSync(frameworkDir, { recursive: true, force: true });
    install(frameworkDir, [`@modelcontextprotocol/conformance@${version}`], log, env);
  }
  if (!existsSync(framework) || installedVersion(packageDir) !== version)
    throw new ToolchainError(
      `@modelcontextprotocol/conformance@${version} is not in ${packageDir}`,
    );
  return { node, framework, packageDir, version, compileCache: join(root, 'compile-cache') };
}

function installedVersion(packageDir) {
  try {
    return JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

/** The requirement sets a framework ships (`requirements/<revision>.yaml`), by revision. */
export function requirementSets(packageDir) {
  const dir = join(packageDir, 'requirements');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.replace(/\.yaml$/, ''))
    .sort();
}
