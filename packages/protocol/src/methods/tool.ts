/**
 * `mcpServer/tool/call` and the tool-call events: `item/mcpToolCall/progress`, `item/started`
 * and `item/completed` restricted to Codex's `mcpToolCall` item. Elicitation (which happens
 * during a tool call) lives in `elicitation.ts` and is re-exported here.
 */

import { z } from 'zod';

import { ContentBlock } from './mcpTypes.js';

export {
  McpElicitationConstOption,
  McpElicitationPrimitiveSchema,
  McpElicitationSchema,
  McpServerElicitationAction,
  McpServerElicitationRequestParams,
  McpServerElicitationRequestResult,
} from './elicitation.js';

/**
 * `mcpServer/tool/call` params. `arguments` is deliberately `unknown`: a non-object is answered
 * by the server with Codex's own -32603 text, not rejected here.
 */
export const McpServerToolCallParams = z
  .object({
    threadId: z.string(),
    server: z.string(),
    tool: z.string(),
    environmentId: z
      .string()
      .nullish()
      .describe('Exact registration scope; omission preserves legacy name-only selection.'),
    arguments: z.unknown().optional(),
    _meta: z.unknown().optional(),
  })
  .meta({ title: 'McpServerToolCallParams' });
export type McpServerToolCallParams = z.infer<typeof McpServerToolCallParams>;

/** `mcpServer/tool/call` result: the MCP `CallToolResult`, passed through unchanged. */
export const McpServerToolCallResult = z
  .looseObject({
    content: z.array(ContentBlock),
    structuredContent: z.unknown().optional(),
    isError: z.boolean().nullish(),
    _meta: z.unknown().optional(),
  })
  .meta({ title: 'McpServerToolCallResult' });
export type McpServerToolCallResult = z.infer<typeof McpServerToolCallResult>;

/** `item/mcpToolCall/progress` notification. */
export const McpToolCallProgressNotification = z
  .object({
    threadId: z.string(),
    turnId: z.string(),
    itemId: z.string(),
    message: z.string(),
  })
  .meta({ title: 'McpToolCallProgressNotification' });
export type McpToolCallProgressNotification = z.infer<typeof McpToolCallProgressNotification>;

/** State of a tool-call item. */
export const McpToolCallStatus = z
  .enum(['inProgress', 'completed', 'failed'])
  .meta({ id: 'McpToolCallStatus' });
export type McpToolCallStatus = z.infer<typeof McpToolCallStatus>;

/** Result stored on a completed tool-call item. */
export const McpToolCallResult = z
  .looseObject({
    content: z.array(z.unknown()),
    structuredContent: z.unknown().optional(),
    _meta: z.unknown().optional(),
  })
  .meta({ id: 'McpToolCallResult' });
export type McpToolCallResult = z.infer<typeof McpToolCallResult>;

/** Error stored on a failed tool-call item. */
export const McpToolCallError = z.object({ message: z.string() }).meta({ id: 'McpToolCallError' });
export type McpToolCallError = z.infer<typeof McpToolCallError>;

/** Codex's `McpToolCallAppContext`. */
export const McpToolCallAppContext = z
  .object({
    connectorId: z.string(),
    actionName: z.string().nullish(),
    appName: z.string().nullish(),
    linkId: z.string().nullish(),
    resourceUri: z.string().nullish(),
  })
  .meta({ id: 'McpToolCallAppContext' });
export type McpToolCallAppContext = z.infer<typeof McpToolCallAppContext>;

/** Codex's `McpAppUi`. */
export const McpAppUi = z
  .object({
    preferredModelDisplayMode: z.enum(['inline', 'fullscreen']).meta({ id: 'McpAppDisplayMode' }),
    resourceUri: z.string(),
  })
  .meta({
    id: 'McpAppUi',
    description: 'UI resource and display preference captured from the tool descriptor.',
  });
export type McpAppUi = z.infer<typeof McpAppUi>;

/** Codex's `mcpToolCall` thread item; `environmentId` is the registration scope. */
export const McpToolCallThreadItem = z
  .object({
    type: z.literal('mcpToolCall'),
    id: z.string(),
    server: z.string(),
    tool: z.string(),
    status: McpToolCallStatus,
    arguments: z.unknown(),
    environmentId: z
      .string()
      .nullable()
      .describe("Registration scope, not necessarily the server's execution environment."),
    result: McpToolCallResult.nullish(),
    error: McpToolCallError.nullish(),
    durationMs: z.int().nullish().describe('The duration of the MCP tool call in milliseconds.'),
    appContext: McpToolCallAppContext.nullish(),
    mcpAppResourceUri: z.string().nullish(),
    mcpAppUi: McpAppUi.nullish(),
    pluginId: z.string().nullish(),
    readOnlyHint: z.boolean().nullish(),
  })
  .meta({ id: 'McpToolCallThreadItem' });
export type McpToolCallThreadItem = z.infer<typeof McpToolCallThreadItem>;

/** `item/started` notification (mcpToolCall items only). */
export const ItemStartedNotification = z
  .object({
    threadId: z.string(),
    turnId: z.string(),
    item: McpToolCallThreadItem,
    startedAtMs: z
      .int()
      .describe('Unix timestamp (in milliseconds) when this item lifecycle started.'),
  })
  .meta({ title: 'ItemStartedNotification' });
export type ItemStartedNotification = z.infer<typeof ItemStartedNotification>;

/** `item/completed` notification (mcpToolCall items only). */
export const ItemCompletedNotification = z
  .object({
    threadId: z.string(),
    turnId: z.string(),
    item: McpToolCallThreadItem,
    completedAtMs: z
      .int()
      .describe('Unix timestamp (in milliseconds) when this item lifecycle completed.'),
    contentTokenCount: z.int().min(0).nullish(),
  })
  .meta({ title: 'ItemCompletedNotification' });
export type ItemCompletedNotification = z.infer<typeof ItemCompletedNotification>;
