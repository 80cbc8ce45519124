/** `history/list` (mcprt extension): recorded tool calls, newest first, with filters and paging. */

import { z } from 'zod';

export const HistoryCallStatus = z
  .enum(['inProgress', 'completed', 'failed', 'cancelled', 'refused'])
  .describe(
    '`refused`: never sent to a server — the tool is outside the view the call was made through (`error` says why).',
  )
  .meta({ id: 'HistoryCallStatus' });
export type HistoryCallStatus = z.infer<typeof HistoryCallStatus>;

export const HistoryCaller = z
  .object({
    subject: z.string().nullable().describe("The access token's `sub`; null when it had none."),
    clientId: z
      .string()
      .nullable()
      .describe("The access token's `client_id` (else `azp`); null when it had neither."),
  })
  .describe(
    'The identity of a gateway caller as recorded (never a token); at least one of the two is set.',
  )
  .meta({ id: 'HistoryCaller' });
export type HistoryCaller = z.infer<typeof HistoryCaller>;

export const HistoryTask = z
  .object({
    id: z.string().describe("The server's task id."),
    wire: z
      .enum(['core', 'extension'])
      .describe('`core`: 2025-11-25 tasks; `extension`: the 2026-07-28 tasks extension.'),
  })
  .describe('A tool call the server ran as an MCP task (docs/tool-calls.md).')
  .meta({ id: 'HistoryTask' });
export type HistoryTask = z.infer<typeof HistoryTask>;

export const HistoryListParams = z
  .object({
    threadId: z
      .string()
      .nullish()
      .describe(
        'Omitted: every thread this connection started (a privileged connection: every thread). A thread of another connection is `thread not found`.',
      ),
    server: z.string().nullish(),
    environmentId: z
      .string()
      .nullish()
      .describe(
        'Omitted: any. A string: that environment. `null` with `threadWideOnly`: thread-wide.',
      ),
    threadWideOnly: z.boolean().nullish().describe('Only calls of thread-wide registrations.'),
    view: z
      .string()
      .min(1)
      .nullish()
      .describe('Only calls made through this view. Omitted or null: any.'),
    caller: z
      .string()
      .min(1)
      .nullish()
      .describe(
        "Only calls of this `mcprt serve` caller: its token's subject or client id, exactly. Omitted or null: any.",
      ),
    status: HistoryCallStatus.nullish(),
    since: z.int().nullish().describe('Inclusive lower bound on startedAt (Unix ms).'),
    until: z.int().nullish().describe('Exclusive upper bound on startedAt (Unix ms).'),
    cursor: z.string().nullish(),
    limit: z.int().min(1).max(500).nullish(),
  })
  .nullish()
  .meta({ title: 'HistoryListParams' });
export type HistoryListParams = z.infer<typeof HistoryListParams>;

export const HistoryEntry = z
  .object({
    id: z.string(),
    threadId: z.string(),
    server: z.string(),
    environmentId: z.string().nullable(),
    tool: z.string(),
    arguments: z.unknown().describe('Arguments with redacted keys replaced by "[REDACTED]".'),
    view: z.string().nullable().describe('The view the call was made through; null when none.'),
    caller: HistoryCaller.nullable().describe(
      'Who asked for the call through `mcprt serve`; null when no identified caller did.',
    ),
    status: HistoryCallStatus,
    result: z
      .unknown()
      .describe('Stored result; a truncation marker object when it was too large.'),
    resultTruncated: z.boolean(),
    error: z.string().nullable(),
    startedAt: z.int().describe('Unix ms.'),
    durationMs: z.int().nullable(),
    task: HistoryTask.nullable()
      .optional()
      .describe('The task the server made of the call; null (or absent) when it made none.'),
  })
  .meta({ id: 'HistoryEntry' });
export type HistoryEntry = z.infer<typeof HistoryEntry>;

export const HistoryListResult = z
  .object({ data: z.array(HistoryEntry), nextCursor: z.string().nullable() })
  .meta({ title: 'HistoryListResult' });
export type HistoryListResult = z.infer<typeof HistoryListResult>;
