/**
 * Why `mcprt sandbox` refuses to run a command. Every refusal happens before anything is
 * started: the command never runs unsandboxed or under a policy weaker than the one given.
 */

export type SandboxRefusalCode = 'state_unenforceable' | 'bubblewrap_missing';

export class SandboxRefusal extends Error {
  readonly code: SandboxRefusalCode;
  constructor(code: SandboxRefusalCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = 'SandboxRefusal';
  }
}

/** The state names something this launcher cannot enforce (or is not a state at all). */
export function unenforceable(detail: string, cause?: unknown): SandboxRefusal {
  return new SandboxRefusal(
    'state_unenforceable',
    `cannot enforce the sandbox state: ${detail}`,
    cause === undefined ? undefined : { cause },
  );
}
