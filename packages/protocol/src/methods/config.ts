/** `config/mcpServer/reload`: re-read config.toml and apply it to running threads. */

import { z } from 'zod';

/** Params: absent, null or `{}` (unknown keys ignored). */
export const ConfigMcpServerReloadParams = z
  .object({})
  .nullish()
  .meta({ title: 'ConfigMcpServerReloadParams' });
export type ConfigMcpServerReloadParams = z.infer<typeof ConfigMcpServerReloadParams>;

/** Result: always `{}`. */
export const ConfigMcpServerReloadResult = z
  .object({})
  .meta({ title: 'ConfigMcpServerReloadResult' });
export type ConfigMcpServerReloadResult = z.infer<typeof ConfigMcpServerReloadResult>;
