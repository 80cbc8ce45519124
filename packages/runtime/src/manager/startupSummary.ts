/**
 * What `Session.ready()` reports once startup has settled: the ready, failed and cancelled
 * registrations among the enabled ones — or, when a `required` server did not start, Codex's
 * aggregated `RequiredServersError` naming each of them.
 */

import { RequiredServersError } from '../errors.js';
import type { Registration } from './registration.js';
import type { StartupSummary } from './status.js';

/** Summarise settled registrations; throws `RequiredServersError` for failed required ones. */
export function summarizeStartup(settled: readonly Registration[]): StartupSummary {
  const regs = settled.filter((r) => r.enabled).map((r) => ({ reg: r, status: r.status }));
  const failedRequired = regs
    .filter(({ reg, status }) => reg.required && status.startupStatus !== 'ready')
    .sort((a, b) => a.reg.label.localeCompare(b.reg.label))
    .map(({ reg, status }) => ({
      label: reg.label,
      error: status.error ?? `required MCP server \`${reg.label}\` was not initialized`,
    }));
  if (failedRequired.length > 0) throw new RequiredServersError(failedRequired);
  const withStatus = (s: string) => regs.filter(({ status }) => status.startupStatus === s);
  return {
    ready: withStatus('ready').map(({ reg }) => reg.scope),
    failed: withStatus('failed').map(({ reg, status }) => ({
      scope: reg.scope,
      error: status.error ?? 'failed',
    })),
    cancelled: withStatus('cancelled').map(({ reg }) => reg.scope),
  };
}
