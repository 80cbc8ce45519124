import { describe, expect, it } from 'vitest';

import { normalizeTerm, relatedTerms, stem, tokenize } from './searchTerms.js';

const words = (text: string) =>
  tokenize(text)
    .map(normalizeTerm)
    .filter((t) => t !== null);

describe('tokenize', () => {
  it('splits on non-letters and camelCase humps', () => {
    expect(tokenize('list_directory-with.sizes/v2').filter(Boolean)).toEqual([
      'list',
      'directory',
      'with',
      'sizes',
      'v2',
    ]);
    expect(tokenize('readMultipleFiles').filter(Boolean)).toEqual(['read', 'Multiple', 'Files']);
    expect(tokenize('parseHTTPResponse').filter(Boolean)).toEqual(['parse', 'HTTP', 'Response']);
  });
});

describe('normalizeTerm', () => {
  it('drops stop words and single characters', () => {
    expect(words('what is in the a of my project')).toEqual(['project']);
  });

  it('folds endings consistently', () => {
    expect(stem('files')).toBe(stem('file'));
    expect(stem('entities')).toBe(stem('entity'));
    expect(stem('listing')).toBe(stem('listed'));
    expect(stem('running')).toBe('run');
    expect(stem('creation')).toBe(stem('create'));
    expect(stem('processes')).toBe(stem('process'));
    expect(stem('status')).toBe('status');
    expect(stem('v2s')).toBe('v2s');
  });

  it('folds same-meaning words into one', () => {
    expect(words('folders')).toEqual(words('directory'));
    expect(words('remove')).toEqual(words('delete'));
    expect(words('rename')).toEqual(words('move'));
    expect(words('picture')).toEqual(words('image'));
    expect(words('sleep')).toEqual(words('wait'));
  });

  it('suggests related words for a query word', () => {
    expect(relatedTerms(normalizeTerm('remember')!)).toContain(normalizeTerm('memory'));
    expect(relatedTerms(normalizeTerm('largest')!)).toContain(normalizeTerm('size'));
    expect(relatedTerms(normalizeTerm('weather')!)).toEqual([]);
    for (const w of ['remember', 'add', 'show', 'link']) {
      expect(relatedTerms(normalizeTerm(w)!)).not.toContain(normalizeTerm(w));
    }
  });
});
