/**
 * Which machine this is, for the gateway self-loop guard (serveChain.ts): a gateway reached over
 * ssh on the same machine with the same config is a loop, one on another machine with a config
 * of the same path is not. The label is derived from systemd's machine id (`/etc/machine-id`,
 * else D-Bus's `/var/lib/dbus/machine-id`), else the hostname. The machine id is confidential
 * (machine-id(5)): it travels to other hosts in the chain, so only a keyed hash of it is used.
 *
 * `MCPRT_HOST_ID`, when set, replaces the label. It only labels this host in the chain (the
 * tests use it to play a second machine over a real sshd on 127.0.0.1); it grants nothing.
 */

import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

export const HOST_ID_ENV = 'MCPRT_HOST_ID';

const MACHINE_ID_FILES = ['/etc/machine-id', '/var/lib/dbus/machine-id'];

function machineId(): string | null {
  for (const file of MACHINE_ID_FILES) {
    try {
      const id = readFileSync(file, 'utf8').trim();
      if (id !== '') return id;
    } catch {
      // Missing or unreadable: the next source.
    }
  }
  return null;
}

/** This host's label in `MCPRT_SERVE_CHAIN`. */
export function hostIdentity(env: NodeJS.ProcessEnv = process.env): string {
  const given = env[HOST_ID_ENV];
  if (given !== undefined && given !== '') return given;
  const source = machineId() ?? `hostname:${hostname()}`;
  return createHmac('sha256', 'mcprt serve chain host').update(source).digest('hex').slice(0, 32);
}
