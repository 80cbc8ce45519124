/**
 * Architecture pins (docs/adr/0001-layout.md), read from the sources so that no lint override can
 * hide a violation: which mcprt package may depend on which; runtime folders import only
 * downward; the runtime never sees the wire protocol; only `connection/`, `launch/` and `auth/`
 * talk to the MCP SDK (and the gateway, an MCP server, to its server side); and every import of
 * a package's source is a dependency its package.json declares (npm workspaces hoist everything,
 * so an undeclared import would still resolve here).
 */

import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PACKAGES = join(ROOT, 'packages');

/** Which mcprt packages each package may import (production and test code alike). */
const PACKAGE_GRAPH: Record<string, string[]> = {
  base: [],
  protocol: [],
  runtime: ['base'],
  'app-server': ['base', 'protocol', 'runtime'],
  gateway: ['base', 'runtime'],
  sdk: ['base', 'protocol'],
  tui: ['base', 'protocol', 'sdk'],
  cli: ['app-server', 'base', 'gateway', 'runtime', 'sdk', 'tui'],
  'sandbox-helper': [],
};

/**
 * The runtime's layers, lowest first. A file may import its own unit and units of lower layers
 * only. Layer 0 is one unit: config, the registration scope, the error classes, private files
 * and the paths a sandboxed command never sees.
 */
const RUNTIME_LAYERS: string[][] = [
  ['config', 'scope.ts', 'errors.ts', 'files', 'protectedPaths.ts'],
  ['elicitation', 'history', 'sandbox', 'skills', 'telemetry', 'apps'],
  ['environments'],
  ['launch'],
  ['auth'],
  ['connection'],
  ['inventory', 'routing'],
  ['views'],
  ['manager'],
  ['index.ts'],
];

/** The runtime's folders that may talk to the MCP client SDK. */
const SDK_FOLDERS = ['connection', 'launch', 'auth'];
/** The gateway is an MCP server (`mcprt serve`): it, and only it, uses the MCP server SDK. */
const SERVER_SDK = '@modelcontextprotocol/server';

interface SourceFile {
  readonly pkg: string;
  /** Path inside the package's `src/`. */
  readonly path: string;
  readonly test: boolean;
  readonly imports: string[];
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return walk(full);
    return /\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;

function importsOf(text: string): string[] {
  // Comments may mention modules; only code counts.
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...code.matchAll(IMPORT)].map((m) => m[1]!);
}

const sources: SourceFile[] = readdirSync(PACKAGES).flatMap((pkg) => {
  const src = join(PACKAGES, pkg, 'src');
  return walk(src).map((file) => {
    const path = relative(src, file);
    return {
      pkg,
      path,
      test: /\.test\.tsx?$/.test(path) || path.startsWith('testing/'),
      imports: importsOf(readFileSync(file, 'utf8')),
    };
  });
});

const packageName = (specifier: string): string =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;

const isBuiltin = (specifier: string): boolean =>
  specifier.startsWith('node:') || builtinModules.includes(specifier);

const manifest = (path: string) =>
  JSON.parse(readFileSync(path, 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };

/** The runtime unit (folder or top-level file; a test counts as its subject) of a path in `src/`. */
const unitOf = (path: string): string => path.split('/')[0]!.replace(/\.test\.ts$/, '.ts');
const layerOf = (unit: string): number => RUNTIME_LAYERS.findIndex((l) => l.includes(unit));

describe('architecture', () => {
  it('finds the sources it checks', () => {
    expect(new Set(sources.map((s) => s.pkg))).toEqual(new Set(Object.keys(PACKAGE_GRAPH)));
    expect(sources.filter((s) => s.pkg === 'runtime').length).toBeGreaterThan(50);
  });

  it('each package imports only the mcprt packages it may depend on', () => {
    const violations = sources.flatMap((s) =>
      s.imports
        .filter((i) => i.startsWith('@mcprt/'))
        .map((i) => packageName(i).slice('@mcprt/'.length))
        .filter((dep) => !PACKAGE_GRAPH[s.pkg]!.includes(dep))
        .map((dep) => `${s.pkg}/src/${s.path} imports @mcprt/${dep}`),
    );
    expect(violations).toEqual([]);
  });

  it('runtime folders import only downward', () => {
    const units = new Set(sources.filter((s) => s.pkg === 'runtime').map((s) => unitOf(s.path)));
    // Every unit of the runtime has a layer: a new folder is a layering decision.
    expect([...units].filter((u) => layerOf(u) < 0)).toEqual([]);
    // Production code only: a unit test may drive its module through a higher layer.
    const violations = sources
      .filter((s) => s.pkg === 'runtime' && !s.test)
      .flatMap((s) => {
        const from = unitOf(s.path);
        return s.imports
          .filter((i) => i.startsWith('.'))
          .map((i) => relative('.', join(dirname(s.path), i)).replace(/\.js$/, '.ts'))
          .map(unitOf)
          .filter((to) => {
            if (to === from) return false;
            const [a, b] = [layerOf(from), layerOf(to)];
            return b < 0 || b > a || (b === a && a !== 0);
          })
          .map((to) => `runtime/src/${s.path} (${from}) imports ${to}`);
      });
    expect(violations).toEqual([]);
  });

  it('the runtime never imports the wire protocol; only connection/, launch/ and auth/ import the MCP SDK, and only the gateway its server side', () => {
    const runtime = sources.filter((s) => s.pkg === 'runtime');
    expect(
      runtime
        .filter((s) => s.imports.some((i) => i.startsWith('@mcprt/protocol')))
        .map((s) => s.path),
    ).toEqual([]);
    const sdkImports = (s: SourceFile) =>
      s.imports.filter((i) => i.startsWith('@modelcontextprotocol/'));
    const allowed = (s: SourceFile, specifier: string) =>
      s.pkg === 'gateway'
        ? specifier === SERVER_SDK || specifier.startsWith(`${SERVER_SDK}/`)
        : s.pkg === 'runtime' && SDK_FOLDERS.includes(unitOf(s.path));
    expect(
      sources.flatMap((s) =>
        sdkImports(s)
          .filter((i) => !allowed(s, i))
          .map((i) => `${s.pkg}/src/${s.path} imports ${i}`),
      ),
    ).toEqual([]);
    // The pin is not vacuous: those folders do use the SDK.
    const runtimeUsers = runtime.filter((s) => sdkImports(s).length > 0);
    expect(new Set(runtimeUsers.map((s) => unitOf(s.path)))).toEqual(new Set(SDK_FOLDERS));
  });

  it('every import is a dependency the package declares (tests may also use the root dev dependencies)', () => {
    const root = manifest(join(ROOT, 'package.json'));
    const rootDeps = new Set([
      ...Object.keys(root.dependencies ?? {}),
      ...Object.keys(root.devDependencies ?? {}),
    ]);
    const violations = sources.flatMap((s) => {
      const own = manifest(join(PACKAGES, s.pkg, 'package.json'));
      const declared = new Set(Object.keys(own.dependencies ?? {}));
      return s.imports
        .filter((i) => !i.startsWith('.') && !isBuiltin(i))
        .map(packageName)
        .filter((dep) => !declared.has(dep) && !(s.test && rootDeps.has(dep)))
        .map((dep) => `${s.pkg}/src/${s.path} imports ${dep}`);
    });
    expect(violations).toEqual([]);
  });
});
