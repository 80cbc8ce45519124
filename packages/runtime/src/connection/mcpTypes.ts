/**
 * The runtime's own shapes of what MCP servers send: tool definitions, tool-call results,
 * resources, templates, read results, prompts, server info and capabilities. They name the fields the
 * runtime and its hosts rely on and keep every other field as sent (index signatures), so the
 * public API never exposes the MCP SDK's types and an SDK upgrade changes nothing above
 * `connection/`.
 */

/** An MCP tool definition as the server listed it (its `name` is what is sent back). */
export interface ToolDefinition {
  readonly name: string;
  readonly description?: string | undefined;
  readonly inputSchema?: unknown;
  readonly [key: string]: unknown;
}

/**
 * One block of a tool result's or prompt message's content, as sent: text, image, audio, a
 * resource link or an embedded resource (annotations and `_meta` ride along).
 */
export type ContentBlock =
  | { readonly type: 'text'; readonly text: string; readonly [key: string]: unknown }
  | {
      readonly type: 'image' | 'audio';
      readonly data: string;
      readonly mimeType: string;
      readonly [key: string]: unknown;
    }
  | {
      readonly type: 'resource_link';
      readonly uri: string;
      readonly name: string;
      readonly [key: string]: unknown;
    }
  | {
      readonly type: 'resource';
      readonly resource: ResourceContents;
      readonly [key: string]: unknown;
    };

/** A `tools/call` result, returned unchanged (also with `isError: true`). */
export interface CallToolResult {
  readonly content: ContentBlock[];
  readonly structuredContent?: Readonly<Record<string, unknown>> | undefined;
  readonly isError?: boolean | undefined;
  readonly _meta?: Readonly<Record<string, unknown>> | undefined;
  readonly [key: string]: unknown;
}

/** An MCP resource as the server listed it. */
export interface McpResource {
  readonly uri: string;
  readonly name: string;
  readonly title?: string | undefined;
  readonly mimeType?: string | undefined;
  readonly [key: string]: unknown;
}

/** An MCP resource template as the server listed it. */
export interface McpResourceTemplate {
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string | undefined;
  readonly [key: string]: unknown;
}

/** An MCP prompt as the server listed it. */
export interface McpPrompt {
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly arguments?:
    | readonly {
        readonly name: string;
        readonly description?: string | undefined;
        readonly required?: boolean | undefined;
        readonly [key: string]: unknown;
      }[]
    | undefined;
  readonly [key: string]: unknown;
}

/** One message of a `prompts/get` result, as sent. */
export interface PromptMessage {
  readonly role: string;
  readonly content: ContentBlock;
  readonly [key: string]: unknown;
}

/** A `prompts/get` result, returned unchanged. */
export interface GetPromptResult {
  readonly messages: PromptMessage[];
  readonly description?: string | undefined;
  readonly [key: string]: unknown;
}

/** One item of a `resources/read` result (`text` or `blob`), as sent. */
export interface ResourceContents {
  readonly uri: string;
  readonly mimeType?: string | undefined;
  readonly text?: string | undefined;
  readonly blob?: string | undefined;
  readonly [key: string]: unknown;
}

/** A `resources/read` result, returned unchanged. */
export interface ReadResourceResult {
  readonly contents: ResourceContents[];
  readonly [key: string]: unknown;
}

/** The server's `initialize` result `serverInfo`, as sent. */
export interface ServerInfo {
  readonly name: string;
  readonly version: string;
  readonly title?: string | undefined;
  readonly [key: string]: unknown;
}

/** The server's `initialize` result `capabilities`, as sent. */
export type ServerCapabilities = Readonly<Record<string, unknown>>;

/** A `notifications/progress` update of one request. */
export interface ProgressUpdate {
  readonly progress: number;
  readonly total?: number | undefined;
  readonly message?: string | undefined;
}
