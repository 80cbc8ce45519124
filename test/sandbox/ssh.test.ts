/**
 * A stdio server in an ssh environment (a real sshd on 127.0.0.1) that advertises
 * `codex/sandbox-state` gets both state keys but never a launcher: the launcher is a path on
 * this machine, meaningless on the remote host.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { tempDir } from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';
import { Sshd } from '../helpers/sshd.js';
import { metaServer, receivedMeta, sandboxKeys } from './helpers.js';

const load = useRuntimes();
let sshd: Sshd;

beforeAll(async () => {
  sshd = await Sshd.start([{ home: tempDir('mcprt-ssh-home-') }]);
});
afterAll(async () => {
  await sshd.close();
});

describe('ssh environment', () => {
  it('stdio server over ssh advertising it → both state keys, no launcher', async () => {
    const state = { sandboxPolicy: { type: 'readOnly' }, zUnknown: [1, { b: 1, a: 2 }] };
    const runtime = load(
      sshd.environmentToml('remote', 0, { cwd: tempDir() }) +
        metaServer('environments.remote.mcp_servers.srv', 'current'),
    );
    const session = runtime.startSession({ sandboxState: state });
    const meta = receivedMeta(
      await session.callTool({ server: 'srv', environmentId: 'remote', tool: 'meta' }),
    );
    expect(sandboxKeys(meta).sort()).toEqual(['codex/sandbox-state', 'codex/sandbox-state-meta']);
    expect(JSON.stringify(meta?.['codex/sandbox-state'])).toBe(JSON.stringify(state));
    expect(JSON.stringify(meta?.['codex/sandbox-state-meta'])).toBe(JSON.stringify(state));
  });
});
