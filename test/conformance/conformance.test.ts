// The official MCP conformance client scenarios (@modelcontextprotocol/conformance, run by
// ../shared/tools/conformance-client.sh on its own Node 22) against a client built on the
// runtime's public API (test/conformance/client.mjs, using the built package).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { REPO_ROOT } from '../helpers/fixtures.js';

const SCRIPT = join(REPO_ROOT, '..', 'shared', 'tools', 'conformance-client.sh');
const SCENARIOS = ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry'];

describe('MCP conformance (client scenarios)', () => {
  it(`passes ${SCENARIOS.join(', ')}`, { timeout: 300_000 }, () => {
    expect(existsSync(SCRIPT), `missing ${SCRIPT}`).toBe(true);
    const run = spawnSync(
      'bash',
      [SCRIPT, '-j', '1', '-v', 'node test/conformance/client.mjs', ...SCENARIOS],
      {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        timeout: 280_000,
      },
    );
    const output = `${run.stdout}\n${run.stderr}`;
    expect(output).toContain(`${SCENARIOS.length} passed, 0 failed`);
    for (const scenario of SCENARIOS) expect(output).toMatch(new RegExp(`^PASS ${scenario} `, 'm'));
  });
});
