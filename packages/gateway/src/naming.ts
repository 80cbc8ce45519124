/**
 * What the gateway's client sees of each registration's tools and prompts: names, titles,
 * descriptions and `_meta` that keep the `server@env` identity. Tool names are the runtime's
 * deterministic model-visible names (`assignModelToolNames`: valid, unique, at most 64
 * characters) without their leading `mcp__`, because the client adds its own server prefix
 * (Codex: `mcp__mcprt__a__shared__echo`, not `mcp__mcprt__mcp__a__shared__echo`). Stripping a
 * constant prefix keeps them unique and deterministic. Prompts are named the same way.
 */

import { assignModelToolNames, scopeLabel } from '@mcprt/runtime';
import type { RegistrationScope } from '@mcprt/runtime';

const MODEL_PREFIX = 'mcp__';

/** `_meta` key under which every listed item names the registration it belongs to. */
export const REGISTRATION_META_KEY = 'mcprt/registration';

export interface RegistrationMeta {
  readonly server: string;
  readonly environmentId: string | null;
  /** `server` or `server@env`. */
  readonly label: string;
}

/** The runtime's model-visible name without its `mcp__` prefix. */
export function gatewayName(modelName: string): string {
  return modelName.startsWith(MODEL_PREFIX) ? modelName.slice(MODEL_PREFIX.length) : modelName;
}

/** Gateway names for named items (prompts) of many registrations, in input order. */
export function assignGatewayNames(
  items: readonly { scope: RegistrationScope; name: string }[],
): string[] {
  return assignModelToolNames(items.map((i) => ({ scope: i.scope, tool: i.name }))).map(
    gatewayName,
  );
}

export function registrationMeta(scope: RegistrationScope): RegistrationMeta {
  return { server: scope.name, environmentId: scope.environmentId, label: scopeLabel(scope) };
}

/** The item's own `_meta` (when an object) plus the registration, under our key. */
export function withRegistrationMeta(
  meta: unknown,
  scope: RegistrationScope,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const base = typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? meta : {};
  return { ...base, [REGISTRATION_META_KEY]: { ...registrationMeta(scope), ...extra } };
}

/** How titles and descriptions name their registration: the runtime's, as views label tools. */
export { labelledDescription, labelledTitle } from '@mcprt/runtime';
