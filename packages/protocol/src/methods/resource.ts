/** `mcpServer/resource/read`: read one resource of one registration, in Codex's shapes. */

import { z } from 'zod';

import { ResourceContent } from './mcpTypes.js';

/** Codex's explicit hosted app/account for a read (accepted; mcprt has no hosted apps). */
export const McpResourceReadTarget = z
  .object({
    connectorId: z.string(),
    linkId: z
      .string()
      .nullable()
      .describe("Null explicitly requests no-auth access, subject to the app's resource policy."),
  })
  .meta({ id: 'McpResourceReadTarget' });
export type McpResourceReadTarget = z.infer<typeof McpResourceReadTarget>;

/** `mcpServer/resource/read` params; `threadId` is optional (Codex's). */
export const McpResourceReadParams = z
  .object({
    threadId: z.string().nullish(),
    server: z.string(),
    uri: z.string(),
    environmentId: z
      .string()
      .nullish()
      .describe('Exact registration scope; omission preserves legacy name-only selection.'),
    _meta: z.record(z.string(), z.unknown()).nullish().describe('Additional MCP request metadata.'),
    originCallId: z.string().nullish(),
    connectorId: z.string().nullish(),
    target: McpResourceReadTarget.nullish(),
  })
  .meta({ title: 'McpResourceReadParams' });
export type McpResourceReadParams = z.infer<typeof McpResourceReadParams>;

/** `mcpServer/resource/read` result. */
export const McpResourceReadResult = z
  .object({
    contents: z.array(ResourceContent),
    originCallId: z
      .string()
      .nullable()
      .describe('Originating call when the server applied app-specific resource scoping.'),
  })
  .meta({ title: 'McpResourceReadResult' });
export type McpResourceReadResult = z.infer<typeof McpResourceReadResult>;
