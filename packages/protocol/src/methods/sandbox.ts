/**
 * `thread/sandboxState/update` (mcprt extension): replace a thread's sandbox state between tool
 * calls. The value is opaque: it is forwarded exactly as given to servers that advertise
 * `codex/sandbox-state` (docs/sandbox.md); `null` clears it.
 */

import { z } from 'zod';

export const ThreadSandboxStateUpdateParams = z
  .object({
    threadId: z.string(),
    sandboxState: z
      .unknown()
      .refine((value) => value !== undefined, {
        message: 'sandboxState is required (null clears the state)',
      })
      .describe(
        'The new opaque sandbox state, used by tool calls issued from now on; null clears it.',
      ),
  })
  .meta({ title: 'ThreadSandboxStateUpdateParams' });
export type ThreadSandboxStateUpdateParams = z.infer<typeof ThreadSandboxStateUpdateParams>;

export const ThreadSandboxStateUpdateResult = z
  .object({})
  .meta({ title: 'ThreadSandboxStateUpdateResult' });
export type ThreadSandboxStateUpdateResult = z.infer<typeof ThreadSandboxStateUpdateResult>;
