/**
 * MCP entities that appear inside app-server payloads: tool, resource and resource-template
 * descriptors, server info, tool-result content blocks and resource contents. They are MCP's own
 * shapes passed through from servers, so every object here is loose (unknown keys are kept) and
 * only the fields Codex's schema names are typed, with Codex's nullability.
 */

import { z } from 'zod';

/** An MCP tool descriptor as the server listed it (`tools/list`); extra keys pass through. */
export const Tool = z
  .looseObject({
    name: z.string(),
    title: z.string().nullish(),
    description: z.string().nullish(),
    inputSchema: z.unknown(),
    outputSchema: z.unknown().optional(),
    annotations: z.unknown().optional(),
    icons: z.array(z.unknown()).nullish(),
    _meta: z.unknown().optional(),
  })
  .meta({ id: 'Tool', description: 'Definition for a tool the client can call.' });
export type Tool = z.infer<typeof Tool>;

/** An MCP resource descriptor (`resources/list`); extra keys pass through. */
export const Resource = z
  .looseObject({
    name: z.string(),
    uri: z.string(),
    title: z.string().nullish(),
    description: z.string().nullish(),
    mimeType: z.string().nullish(),
    size: z.int().nullish(),
    annotations: z.unknown().optional(),
    icons: z.array(z.unknown()).nullish(),
    _meta: z.unknown().optional(),
  })
  .meta({ id: 'Resource', description: 'A known resource that the server is capable of reading.' });
export type Resource = z.infer<typeof Resource>;

/** An MCP resource template (`resources/templates/list`); extra keys pass through. */
export const ResourceTemplate = z
  .looseObject({
    name: z.string(),
    uriTemplate: z.string(),
    title: z.string().nullish(),
    description: z.string().nullish(),
    mimeType: z.string().nullish(),
    annotations: z.unknown().optional(),
  })
  .meta({
    id: 'ResourceTemplate',
    description: 'A template description for resources available on the server.',
  });
export type ResourceTemplate = z.infer<typeof ResourceTemplate>;

/** `serverInfo` from the server's `initialize` result, with Codex's null-filled optional fields. */
export const McpServerInfo = z
  .object({
    name: z.string(),
    version: z.string(),
    title: z.string().nullish(),
    description: z.string().nullish(),
    icons: z.array(z.unknown()).nullish(),
    websiteUrl: z.string().nullish(),
  })
  .meta({
    id: 'McpServerInfo',
    description: 'Presentation metadata advertised by an initialized MCP server.',
  });
export type McpServerInfo = z.infer<typeof McpServerInfo>;

/** One item of a `CallToolResult.content` array (text, image, audio, resource_link, resource…). */
export const ContentBlock = z
  .looseObject({ type: z.string() })
  .meta({ id: 'ContentBlock', description: 'An MCP content block, passed through unchanged.' });
export type ContentBlock = z.infer<typeof ContentBlock>;

/** Text resource contents (`resources/read`). */
export const TextResourceContents = z
  .looseObject({
    uri: z.string().describe('The URI of this resource.'),
    mimeType: z.string().nullish(),
    text: z.string(),
    _meta: z.unknown().optional(),
  })
  .meta({ id: 'TextResourceContents' });
export type TextResourceContents = z.infer<typeof TextResourceContents>;

/** Binary resource contents, base64 in `blob` (`resources/read`). */
export const BlobResourceContents = z
  .looseObject({
    uri: z.string().describe('The URI of this resource.'),
    mimeType: z.string().nullish(),
    blob: z.string(),
    _meta: z.unknown().optional(),
  })
  .meta({ id: 'BlobResourceContents' });
export type BlobResourceContents = z.infer<typeof BlobResourceContents>;

/** Codex's `ResourceContent`: text or blob contents. */
export const ResourceContent = z.union([TextResourceContents, BlobResourceContents]).meta({
  id: 'ResourceContent',
  description: 'Contents returned when reading a resource from an MCP server.',
});
export type ResourceContent = z.infer<typeof ResourceContent>;
