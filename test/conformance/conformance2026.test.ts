// The current official MCP conformance line, @modelcontextprotocol/conformance 0.2.0-alpha.12
// (run by the project's own runner, scripts/conformance.mjs, which installs Node 22 and the
// framework into a cache outside the repository on first use — nothing but the network is
// needed), against the client built on the runtime's public API (test/conformance/client.mjs):
// all 48 client scenarios, and exactly what each requirement set asks of a client — 32 scenarios
// at the 2026-07-28 wire, 18 at the 2025-11-25 wire (their not-scored extras are among the 48) —
// all in strict mode, so no scenario passes
// without a successful check. The three runs go at once (the suite gives this file the machine
// to itself). A scenario that fails under that load is re-run once alone (`--retry`: at most two
// per run), and the test prints which were.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { NODE, REPO_ROOT, tempDir } from '../helpers/fixtures.js';

const RUNNER = join(REPO_ROOT, 'scripts', 'conformance.mjs');
const VERSION = '0.2.0-alpha.12';
const out = tempDir('mcprt-conformance-2026-');

interface Run {
  readonly what: string;
  readonly output: string;
  readonly status: number | null;
  readonly seconds: number;
}

function run(what: string, args: string[]): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(
      NODE,
      [RUNNER, '--version', VERSION, '--strict', '--retry', '-v', '-o', join(out, what), ...args],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += String(d)));
    child.stderr.on('data', (d: Buffer) => (output += String(d)));
    child.once('close', (status) =>
      resolve({ what, output, status, seconds: Math.round((Date.now() - started) / 1000) }),
    );
  });
}

/** The verdict lines (`PASS|FAIL <scenario> (…)…`) of a run. */
const verdicts = (r: Run) => [...r.output.matchAll(/^(PASS|FAIL) (\S+) \(.*$/gm)].map((m) => m[0]);

afterAll(() => rmSync(out, { recursive: true, force: true }));

describe(`MCP conformance ${VERSION} (client scenarios)`, () => {
  it(
    'passes all 48 client scenarios and both requirement sets, none vacuously',
    { timeout: 900_000 },
    async () => {
      const runs = await Promise.all([
        run('all', ['-j', '3']),
        // The sets' not-scored scenarios (extensions, added after the release) are among the 48.
        run('requirements-2026-07-28', [
          '--requirements',
          '2026-07-28',
          '--scored-only',
          '-j',
          '3',
        ]),
        run('requirements-2025-11-25', [
          '--requirements',
          '2025-11-25',
          '--scored-only',
          '-j',
          '2',
        ]),
      ]);
      for (const r of runs) {
        const summary = /^\d+ passed, \d+ failed$/m.exec(r.output)?.[0] ?? 'no summary';
        const retried = r.output.match(/^retried .*$/gm) ?? [];
        console.log(
          [`conformance ${VERSION} ${r.what}: ${summary} in ${r.seconds} s`, ...retried].join(
            '\n  ',
          ),
        );
      }
      const [all, r2026, r2025] = runs as [Run, Run, Run];

      expect(all.output).toContain(`framework ${VERSION}, node v22.`);
      expect(all.output).toContain('48 scenario(s), strict');
      expect(all.output).toMatch(/^48 passed, 0 failed$/m);
      expect(all.status, all.output).toBe(0);
      expect(verdicts(all)).toHaveLength(48);

      expect(r2026.output).toContain('requirement set 2026-07-28, 32 scenario(s) at 2026-07-28');
      expect(r2026.output).toMatch(/^32 passed, 0 failed$/m);
      expect(verdicts(r2026)).toHaveLength(32);
      expect(r2026.status, r2026.output).toBe(0);

      expect(r2025.output).toContain('requirement set 2025-11-25, 18 scenario(s) at 2025-11-25');
      expect(r2025.output).toMatch(/^18 passed, 0 failed$/m);
      expect(verdicts(r2025)).toHaveLength(18);
      expect(r2025.status, r2025.output).toBe(0);

      // Strict mode fails a vacuous pass; none may even have been noted as vacuous.
      for (const r of runs)
        for (const line of verdicts(r)) {
          expect(line, r.what).toMatch(/^PASS /);
          expect(line, r.what).not.toMatch(/ vacuous/);
        }
      // The scenarios the 2026 revision added are among them (the ones mcprt failed before).
      for (const scenario of [
        'request-metadata',
        'sep-2322-client-request-state',
        'http-standard-headers',
        'json-schema-2020-12-preservation',
        'auth/dpop-nonce',
      ])
        expect(all.output).toMatch(new RegExp(`^PASS ${scenario} `, 'm'));
    },
  );
});
