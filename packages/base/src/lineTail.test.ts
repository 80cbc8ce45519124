import { describe, expect, it } from 'vitest';

import { LineTail } from './lineTail.js';

describe('LineTail', () => {
  it('keeps the last lines, each cut to the maximum length, with the unterminated one last', () => {
    const tail = new LineTail(2, 5);
    tail.push('one\r\ntwo\nthree-is-long\npar');
    tail.push(Buffer.from('tial'));
    expect(tail.snapshot()).toEqual(['two', 'three', 'parti']);
    tail.push('\n');
    expect(tail.snapshot()).toEqual(['three', 'parti']);
  });
});
