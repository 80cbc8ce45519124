/**
 * How a connection's end is told and waited for: the reason for people (a failed ping, an
 * oversized message, the stdio server's exit status or signal) and, after a failed startup
 * attempt, the short wait for a stdio server's exit so that the failure can name it.
 */

import type { Transport } from '@modelcontextprotocol/client';

import type { ServerConfig } from '../config/types.js';
import { StdioProcessTransport } from '../launch/stdioTransport.js';
import { describeRefusal } from './protocolRefusal.js';

/** Why the connection ended, for people (exit status, signal, oversized message, ping). */
export function endReason(transport: Transport | undefined, healthFailure: string | null): string {
  if (healthFailure) return healthFailure;
  if (transport instanceof StdioProcessTransport && transport.failure) {
    return transport.failure.message;
  }
  if (transport instanceof StdioProcessTransport && transport.exit) {
    const { code, signal } = transport.exit;
    return signal
      ? `server process was killed by ${signal}`
      : `server process exited with code ${code}`;
  }
  return 'connection closed';
}

/** A pipe error means the process is exiting: wait so the failure can name the exit. */
export async function settleExit(
  config: ServerConfig,
  transport: Transport | undefined,
  error: unknown,
): Promise<void> {
  const code = (error as { code?: unknown } | null)?.code;
  if (
    code !== 'REQUEST_TIMEOUT' &&
    transport instanceof StdioProcessTransport &&
    describeRefusal(config, error) === null
  ) {
    await transport.waitForExit(1000);
  }
}
