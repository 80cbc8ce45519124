import { createRequire } from 'node:module';

import { describe, expect, it } from 'vitest';

import { countTokens, toolDefinitionText, toolDefinitionTokens } from './toolCost.js';

const ECHO = {
  name: 'echo',
  description: 'Echo the message back',
  inputSchema: {
    type: 'object',
    properties: { message: { type: 'string' } },
    required: ['message'],
  },
};

const encoderLoaded = (): boolean =>
  Object.keys(createRequire(import.meta.url).cache).some((f) =>
    f.includes('gpt-tokenizer/cjs/encoding/o200k_base'),
  );

describe('the encoder', () => {
  // First in this file: nothing has counted yet.
  it('is loaded on the first count, not on import', () => {
    expect(encoderLoaded()).toBe(false);
    expect(countTokens('hello world')).toBe(2);
    expect(encoderLoaded()).toBe(true);
  });
});

describe('countTokens', () => {
  it('counts o200k_base tokens', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('hello world')).toBe(2);
  });

  it('counts special-token text as ordinary text instead of throwing', () => {
    expect(countTokens('<|endoftext|>')).toBe(7);
  });
});

describe('toolDefinitionTokens', () => {
  it('counts {name, description, input_schema} as compact JSON', () => {
    expect(toolDefinitionText(ECHO)).toBe(
      '{"name":"echo","description":"Echo the message back","input_schema":{"type":"object",' +
        '"properties":{"message":{"type":"string"}},"required":["message"]}}',
    );
    expect(toolDefinitionTokens(ECHO)).toBe(33);
  });

  it('counts a missing schema as {"type":"object"} and leaves out an empty description', () => {
    expect(toolDefinitionText({ name: 'whoami' })).toBe(
      '{"name":"whoami","input_schema":{"type":"object"}}',
    );
    expect(toolDefinitionTokens({ name: 'whoami' })).toBe(13);
    expect(toolDefinitionTokens({ name: 'whoami', description: '' })).toBe(13);
    expect(toolDefinitionTokens({ name: 'whoami', description: 42 })).toBe(13);
  });

  it('does not count what hosts do not send: title, output schema, annotations', () => {
    const dressed = {
      ...ECHO,
      title: 'Echo',
      outputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      annotations: { readOnlyHint: true },
    };
    expect(toolDefinitionTokens(dressed)).toBe(toolDefinitionTokens({ ...ECHO }));
  });

  it('costs more for a bigger schema and a longer description', () => {
    const bigger = {
      ...ECHO,
      inputSchema: {
        ...ECHO.inputSchema,
        properties: {
          message: { type: 'string', description: 'What to echo back, verbatim' },
          times: { type: 'integer', minimum: 1, maximum: 10, description: 'How often' },
        },
      },
    };
    const wordier = { ...ECHO, description: `${ECHO.description}, unchanged, as text.` };
    expect(toolDefinitionTokens(bigger)).toBeGreaterThan(33);
    expect(toolDefinitionTokens(wordier)).toBeGreaterThan(33);
  });

  it('is cached per definition object', () => {
    const definition = { name: 'echo', description: 'Echo the message back' };
    const first = toolDefinitionTokens(definition);
    expect(toolDefinitionTokens(definition)).toBe(first);
    // A definition is never changed in place; if it were, its cached count would stay.
    definition.description = 'A much longer description than before, with many more words in it';
    expect(toolDefinitionTokens(definition)).toBe(first);
    expect(toolDefinitionTokens({ ...definition })).toBeGreaterThan(first);
  });
});
