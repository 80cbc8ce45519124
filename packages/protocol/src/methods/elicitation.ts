/**
 * `mcpServer/elicitation/request` (server → client request): an MCP server asks the user for
 * input, relayed with its registration scope. Mirrors Codex exactly, including the typed form
 * schema (MCP 2025-11-25 `ElicitRequestFormParams.requestedSchema`, closed objects).
 */

import { z } from 'zod';

const optString = () => z.string().nullish();

const StringType = z.literal('string');
const ArrayType = z.literal('array');

/** `{ const, title }` option of a titled enum. */
export const McpElicitationConstOption = z
  .strictObject({ const: z.string(), title: z.string() })
  .meta({ id: 'McpElicitationConstOption' });
export type McpElicitationConstOption = z.infer<typeof McpElicitationConstOption>;

const UntitledSingleSelect = z
  .strictObject({
    type: StringType,
    enum: z.array(z.string()),
    default: optString(),
    description: optString(),
    title: optString(),
  })
  .meta({ id: 'McpElicitationUntitledSingleSelectEnumSchema' });

const TitledSingleSelect = z
  .strictObject({
    type: StringType,
    oneOf: z.array(McpElicitationConstOption),
    default: optString(),
    description: optString(),
    title: optString(),
  })
  .meta({ id: 'McpElicitationTitledSingleSelectEnumSchema' });

const multiSelectCommon = {
  type: ArrayType,
  default: z.array(z.string()).nullish(),
  description: optString(),
  maxItems: z.int().min(0).nullish(),
  minItems: z.int().min(0).nullish(),
  title: optString(),
};

const UntitledMultiSelect = z
  .strictObject({
    ...multiSelectCommon,
    items: z
      .strictObject({ type: StringType, enum: z.array(z.string()) })
      .meta({ id: 'McpElicitationUntitledEnumItems' }),
  })
  .meta({ id: 'McpElicitationUntitledMultiSelectEnumSchema' });

const TitledMultiSelect = z
  .strictObject({
    ...multiSelectCommon,
    items: z
      .strictObject({ anyOf: z.array(McpElicitationConstOption) })
      .meta({ id: 'McpElicitationTitledEnumItems' }),
  })
  .meta({ id: 'McpElicitationTitledMultiSelectEnumSchema' });

const LegacyTitledEnum = z
  .strictObject({
    type: StringType,
    enum: z.array(z.string()),
    enumNames: z.array(z.string()).nullish(),
    default: optString(),
    description: optString(),
    title: optString(),
  })
  .meta({ id: 'McpElicitationLegacyTitledEnumSchema' });

const StringSchema = z
  .strictObject({
    type: StringType,
    default: optString(),
    description: optString(),
    format: z
      .enum(['email', 'uri', 'date', 'date-time'])
      .meta({ id: 'McpElicitationStringFormat' })
      .nullish(),
    maxLength: z.int().min(0).nullish(),
    minLength: z.int().min(0).nullish(),
    title: optString(),
  })
  .meta({ id: 'McpElicitationStringSchema' });

const NumberSchema = z
  .strictObject({
    type: z.enum(['number', 'integer']).meta({ id: 'McpElicitationNumberType' }),
    default: z.number().nullish(),
    description: optString(),
    maximum: z.number().nullish(),
    minimum: z.number().nullish(),
    title: optString(),
  })
  .meta({ id: 'McpElicitationNumberSchema' });

const BooleanSchema = z
  .strictObject({
    type: z.literal('boolean'),
    default: z.boolean().nullish(),
    description: optString(),
    title: optString(),
  })
  .meta({ id: 'McpElicitationBooleanSchema' });

/** One field of a form elicitation. */
export const McpElicitationPrimitiveSchema = z
  .union([
    z
      .union([
        z
          .union([UntitledSingleSelect, TitledSingleSelect])
          .meta({ id: 'McpElicitationSingleSelectEnumSchema' }),
        z
          .union([UntitledMultiSelect, TitledMultiSelect])
          .meta({ id: 'McpElicitationMultiSelectEnumSchema' }),
        LegacyTitledEnum,
      ])
      .meta({ id: 'McpElicitationEnumSchema' }),
    StringSchema,
    NumberSchema,
    BooleanSchema,
  ])
  .meta({ id: 'McpElicitationPrimitiveSchema' });
export type McpElicitationPrimitiveSchema = z.infer<typeof McpElicitationPrimitiveSchema>;

/** Typed form schema for MCP `elicitation/create` requests. */
export const McpElicitationSchema = z
  .strictObject({
    $schema: optString(),
    type: z.literal('object'),
    properties: z.record(z.string(), McpElicitationPrimitiveSchema),
    required: z.array(z.string()).nullish(),
  })
  .meta({ id: 'McpElicitationSchema' });
export type McpElicitationSchema = z.infer<typeof McpElicitationSchema>;

const base = {
  threadId: z.string(),
  turnId: z
    .string()
    .nullable()
    .describe('Active turn when the elicitation was observed, if one could be correlated.'),
  serverName: z.string(),
  environmentId: z
    .string()
    .nullable()
    .describe("Registration scope, not necessarily the server's execution environment."),
  _meta: z.unknown(),
  message: z.string(),
};

/** `mcpServer/elicitation/request` params, tagged by `mode`. */
export const McpServerElicitationRequestParams = z
  .discriminatedUnion('mode', [
    z.object({ ...base, mode: z.literal('form'), requestedSchema: McpElicitationSchema }),
    z.object({ ...base, mode: z.literal('openai/form'), requestedSchema: z.unknown() }),
    z.object({ ...base, mode: z.literal('openaiForm'), requestedSchema: z.unknown() }),
    z.object({ ...base, mode: z.literal('url'), elicitationId: z.string(), url: z.string() }),
  ])
  .meta({ title: 'McpServerElicitationRequestParams' });
export type McpServerElicitationRequestParams = z.infer<typeof McpServerElicitationRequestParams>;

/** The user's answer. */
export const McpServerElicitationAction = z
  .enum(['accept', 'decline', 'cancel'])
  .meta({ id: 'McpServerElicitationAction' });
export type McpServerElicitationAction = z.infer<typeof McpServerElicitationAction>;

/** `mcpServer/elicitation/request` result (sent by the client). */
export const McpServerElicitationRequestResult = z
  .object({
    action: McpServerElicitationAction,
    content: z
      .unknown()
      .optional()
      .describe('Structured user input for accepted elicitations; null for decline/cancel.'),
    _meta: z.unknown().optional().describe('Optional client metadata for form-mode actions.'),
  })
  .meta({ title: 'McpServerElicitationRequestResult' });
export type McpServerElicitationRequestResult = z.infer<typeof McpServerElicitationRequestResult>;
