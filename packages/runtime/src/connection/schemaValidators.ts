/**
 * The process's one JSON Schema validator for MCP schemas (tools' outputSchema, elicitation
 * `requestedSchema`): the SDK's AJV provider behind a bounded cache keyed by schema text
 * (`@mcprt/base` SchemaValidatorCache explains the leak it closes). Given to every SDK client as
 * its `jsonSchemaValidator` and used by our own checks, so a schema seen again — after a
 * reconnect, a list_changed, the next elicitation — is never compiled again.
 */

import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from '@modelcontextprotocol/client';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { SchemaValidatorCache } from '@mcprt/base';

const cache = new SchemaValidatorCache<JsonSchemaValidator<unknown>>(
  () => new AjvJsonSchemaValidator(),
);

export const schemaValidators: jsonSchemaValidator & { readonly size: number } = {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    return cache.get(schema) as JsonSchemaValidator<T>;
  },
  get size(): number {
    return cache.size;
  },
};
