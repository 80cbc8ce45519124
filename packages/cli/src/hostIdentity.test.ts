/** The host label of the gateway self-loop guard: stable, keyed, never the machine id itself. */

import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { hostIdentity } from './hostIdentity.js';

function machineIdIfAny(): string | null {
  for (const file of ['/etc/machine-id', '/var/lib/dbus/machine-id']) {
    try {
      const id = readFileSync(file, 'utf8').trim();
      if (id !== '') return id;
    } catch {
      // next
    }
  }
  return null;
}

describe('hostIdentity', () => {
  it('is a stable keyed hash that never shows the machine id', () => {
    const label = hostIdentity({});
    expect(label).toMatch(/^[0-9a-f]{32}$/);
    expect(hostIdentity({})).toBe(label);
    const id = machineIdIfAny();
    if (id !== null) expect(label).not.toContain(id.slice(0, 8));
  });

  it('takes MCPRT_HOST_ID as the label when set (and not when empty)', () => {
    expect(hostIdentity({ MCPRT_HOST_ID: 'another-machine' })).toBe('another-machine');
    expect(hostIdentity({ MCPRT_HOST_ID: '' })).toBe(hostIdentity({}));
  });
});
