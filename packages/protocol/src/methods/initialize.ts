/**
 * The handshake: `initialize` (request) and `initialized` (client notification), in Codex's
 * shapes. `codexHome` keeps Codex's field name; mcprt fills it with its own config home.
 */

import { z } from 'zod';

/** Who the client is; `name` and `version` end up in `userAgent`. */
export const ClientInfo = z
  .looseObject({
    name: z.string(),
    title: z.string().nullish(),
    version: z.string(),
  })
  .meta({ id: 'ClientInfo' });
export type ClientInfo = z.infer<typeof ClientInfo>;

/** Client capabilities; `experimentalApi` gates experimental methods and fields. */
export const InitializeCapabilities = z
  .looseObject({
    experimentalApi: z
      .boolean()
      .nullish()
      .describe(
        'Opt into experimental methods and fields (Codex: `environment/*`, `thread/start.environments`).',
      ),
  })
  .meta({ id: 'InitializeCapabilities' });
export type InitializeCapabilities = z.infer<typeof InitializeCapabilities>;

/** `initialize` params. Loose: clients send fields we do not know (e.g. `requestAttestation`). */
export const InitializeParams = z
  .looseObject({
    clientInfo: ClientInfo,
    capabilities: InitializeCapabilities.nullish(),
  })
  .meta({ title: 'InitializeParams' });
export type InitializeParams = z.infer<typeof InitializeParams>;

/** `initialize` result. */
export const InitializeResult = z
  .object({
    userAgent: z.string(),
    codexHome: z
      .string()
      .describe("The runtime's config home directory (Codex's field name; mcprt: $MCPRT_HOME)."),
    platformFamily: z.string().describe('e.g. `unix`, `windows`.'),
    platformOs: z.string().describe('e.g. `linux`, `macos`, `windows`.'),
  })
  .meta({ title: 'InitializeResult' });
export type InitializeResult = z.infer<typeof InitializeResult>;

/** `initialized` notification params: absent, null or any object. */
export const InitializedNotificationParams = z
  .looseObject({})
  .nullish()
  .meta({ title: 'InitializedNotificationParams' });
export type InitializedNotificationParams = z.infer<typeof InitializedNotificationParams>;
