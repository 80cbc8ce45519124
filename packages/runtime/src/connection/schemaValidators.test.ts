import { describe, expect, it } from 'vitest';

import { schemaValidators } from './schemaValidators.js';

// The process-wide validator with the SDK's real AJV engine behind it.
const objectWith = (key: string, type: string, id?: string) => ({
  ...(id === undefined ? {} : { $id: id }),
  type: 'object' as const,
  properties: { [key]: { type } },
  required: [key],
});

describe('schemaValidators', () => {
  it('hands out one compiled validator for schemas of the same text', () => {
    const before = schemaValidators.size;
    const first = schemaValidators.getValidator(objectWith('answer', 'string'));
    for (let i = 0; i < 500; i++) {
      expect(schemaValidators.getValidator(objectWith('answer', 'string'))).toBe(first);
    }
    expect(schemaValidators.size).toBe(before + 1);
    expect(first({ answer: 'x' }).valid).toBe(true);
    const bad = first({ answer: 3 });
    expect(bad.valid).toBe(false);
    expect(bad.errorMessage).toMatch(/answer.*must be string/);
  });

  it("keeps two servers' schemas with the same $id apart", () => {
    const a = schemaValidators.getValidator(objectWith('a', 'string', 'urn:mcprt:same'));
    const b = schemaValidators.getValidator(objectWith('b', 'number', 'urn:mcprt:same'));
    expect(a({ a: 'x' }).valid).toBe(true);
    expect(a({ b: 1 }).valid).toBe(false);
    expect(b({ b: 1 }).valid).toBe(true);
    expect(b({ a: 'x' }).valid).toBe(false);
  });

  it('throws for a schema AJV cannot compile, every time', () => {
    const broken = { type: 'object', properties: { x: { type: 'no-such-type' } } };
    expect(() => schemaValidators.getValidator(broken as never)).toThrow(/type/);
    expect(() => schemaValidators.getValidator(broken as never)).toThrow(/type/);
  });
});
