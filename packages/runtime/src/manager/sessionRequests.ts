/**
 * The half of `Session`'s public API that asks its servers: tool calls (by name or model-visible
 * name), resources, resource templates, prompts and SEP-2640 skills — each routed by
 * `(server, environmentId?)` and carried out by calls.ts. The other half (lifecycle, status,
 * config) is session.ts.
 */

import { EventEmitter } from 'node:events';

import type {
  CallToolResult,
  GetPromptResult,
  McpPrompt,
  ReadResourceResult,
} from '../connection/mcpTypes.js';
import type { SkillFile, SkillFileRequest, SkillListing } from '../skills/types.js';
import type {
  LiveListing,
  PromptRequest,
  RefusedCallRequest,
  ResourceFilter,
  ResourceReadRequest,
  SessionCalls,
  SkillListRequest,
  ToolCallRequest,
} from './calls.js';
import type { SessionEvents } from './sessionTypes.js';
import type { StatusResource, StatusResourceTemplate } from './status.js';

export abstract class SessionRequests extends EventEmitter<SessionEvents> {
  protected abstract readonly calls: SessionCalls;

  /**
   * Call a tool of one registration. Emits `toolCallStarted`/`toolCallProgress`/
   * `toolCallCompleted` and records the call in history. The MCP result is returned unchanged
   * (also with `isError: true`); transport failures, timeouts and cancellation reject.
   */
  callTool(request: ToolCallRequest): Promise<CallToolResult> {
    return this.calls.callTool(request);
  }

  /**
   * Record in the history a call refused without contacting any server (the session's view does
   * not include the tool): status `refused`, `durationMs` 0, `error` the refusal text, arguments
   * redacted as any call's. Emits no event; does nothing when history is disabled.
   */
  recordRefusedCall(request: RefusedCallRequest): void {
    this.calls.recordRefusedCall(request);
  }

  /** Call a tool by its model-visible name (`mcp__server__tool`). */
  callModelTool(
    modelName: string,
    args?: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<CallToolResult> {
    return this.calls.callModelTool(modelName, args, signal);
  }

  /**
   * Resources of every ready registration (or of one: `server` + optional `environmentId`, the
   * usual routing), fetched live page by page — of a restarting one, or one lost with its
   * environment, what its server last listed. A server that fails (e.g. `resources/list
   * returned duplicate cursor`) is left out and reported in `errors`; the others are listed.
   */
  listResources(filter: ResourceFilter = {}): Promise<LiveListing<StatusResource>> {
    return this.calls.list('resources', filter);
  }

  /** Resource templates, as `listResources`. */
  listResourceTemplates(filter: ResourceFilter = {}): Promise<LiveListing<StatusResourceTemplate>> {
    return this.calls.list('resourceTemplates', filter);
  }

  /** Read one resource of a registration (routed like a tool call). */
  readResource(request: ResourceReadRequest): Promise<ReadResourceResult> {
    return this.calls.readResource(request);
  }

  /** Prompts, as `listResources` (a server without the prompts capability lists none). */
  listPrompts(filter: ResourceFilter = {}): Promise<LiveListing<McpPrompt>> {
    return this.calls.list('prompts', filter);
  }

  /** `prompts/get` on one registration (the usual routing); the result is returned unchanged. */
  getPrompt(request: PromptRequest): Promise<GetPromptResult> {
    return this.calls.getPrompt(request);
  }

  /** SEP-2640 skills of one registration, listed without reading any file (docs/skills.md). */
  listSkills(request: SkillListRequest): Promise<SkillListing> {
    return this.calls.listSkills(request);
  }

  /** One file of a listed skill (default `SKILL.md`), read now and verified against the entry. */
  readSkillFile(request: SkillFileRequest): Promise<SkillFile> {
    return this.calls.readSkillFile(request);
  }
}
