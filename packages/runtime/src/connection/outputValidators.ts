/**
 * Output-schema validation of tool results for the tool-call fast path (ADR 0021), as the MCP
 * SDK's `Client.callTool` does it: each listed tool's `outputSchema` compiled once with the SDK's
 * own JSON Schema validator (its AJV provider, behind the process-wide cache of
 * schemaValidators.ts), a schema that does not compile failing only calls of that tool, and the
 * SDK's texts and error codes for a missing or mismatched `structuredContent` (`isError` results
 * are not checked). The index is rebuilt when the connection's tool list changes (a new array).
 */

import type { JsonSchemaType, JsonSchemaValidator } from '@modelcontextprotocol/client';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';

import type { CallToolResult, ToolDefinition } from './mcpTypes.js';
import { schemaValidators } from './schemaValidators.js';

type Compiled =
  | { readonly ok: true; readonly validate: JsonSchemaValidator<unknown> }
  | { readonly ok: false; readonly error: unknown };

export class OutputValidators {
  private source: readonly ToolDefinition[] | undefined;
  private readonly byName = new Map<string, Compiled | null>();

  /** The check for tool `name` of `tools` (null: it has no outputSchema or is not listed). */
  private lookup(tools: readonly ToolDefinition[], name: string): Compiled | null {
    if (tools !== this.source) {
      this.source = tools;
      this.byName.clear();
    }
    let compiled = this.byName.get(name);
    if (compiled === undefined) {
      compiled = this.compile(tools.find((tool) => tool.name === name));
      this.byName.set(name, compiled);
    }
    return compiled;
  }

  private compile(tool: ToolDefinition | undefined): Compiled | null {
    const schema = tool?.['outputSchema'];
    if (!schema) return null;
    try {
      return { ok: true, validate: schemaValidators.getValidator(schema as JsonSchemaType) };
    } catch (error) {
      return { ok: false, error };
    }
  }

  /**
   * Before the request: the validator for the call, or throws the SDK's `InvalidParams` error
   * when the tool's outputSchema does not compile.
   */
  prepare(tools: readonly ToolDefinition[], name: string): JsonSchemaValidator<unknown> | null {
    const compiled = this.lookup(tools, name);
    if (compiled === null) return null;
    if (compiled.ok) return compiled.validate;
    const err = compiled.error;
    const message = (err instanceof Error ? err.message : String(err)).slice(0, 200);
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Tool '${name}' has an invalid outputSchema: ${message}`,
    );
  }
}

/** After the response: throws the SDK's error when `result` does not satisfy the tool's schema. */
export function checkStructuredContent(
  validate: JsonSchemaValidator<unknown>,
  name: string,
  result: CallToolResult,
): void {
  if (result.isError) return;
  if (result.structuredContent === undefined) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidRequest,
      `Tool ${name} has an output schema but did not return structured content`,
    );
  }
  let outcome;
  try {
    outcome = validate(result.structuredContent);
  } catch (error) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Failed to validate structured content: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (!outcome.valid) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Structured content does not match the tool's output schema: ${outcome.errorMessage}`,
    );
  }
}
