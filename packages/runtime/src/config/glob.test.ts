// The glob matcher of tool filters and views: `*` and `?` only, everything else literal, and the
// `<environment>/<server>/<tool>` path patterns of views.
import { describe, expect, it } from 'vitest';

import {
  compileGlob,
  compileToolPathPattern,
  globToRegExp,
  isGlobPattern,
  parseToolPath,
  toolPath,
  toolPathPatternProblem,
  toolPathProblem,
} from './glob.js';
import type { ToolPathPattern } from './glob.js';
import * as viewsGlob from '../views/glob.js';

function compiled(pattern: string): ToolPathPattern {
  const result = compileToolPathPattern(pattern);
  if ('problem' in result) throw new Error(result.problem);
  return result;
}

describe('compileGlob', () => {
  it('a pattern without `*` or `?` is an exact name, whatever else it holds', () => {
    for (const name of [
      'a[b]',
      'x{1,2}',
      '!neg',
      'f(x)',
      'a.b',
      'a+b',
      '^$',
      'back\\slash',
      'a|b',
    ]) {
      expect(isGlobPattern(name)).toBe(false);
      const match = compileGlob(name);
      expect(match(name)).toBe(true);
      expect(match(`${name}x`)).toBe(false);
      expect(match(name.slice(1))).toBe(false);
    }
    expect(compileGlob('a[b]')('ab')).toBe(false);
    expect(compileGlob('x{1,2}')('x1')).toBe(false);
    expect(compileGlob('!neg')('other')).toBe(false);
  });

  it('`*` matches any run of characters, `/` and none included', () => {
    const match = compileGlob('delete_*');
    expect(match('delete_')).toBe(true);
    expect(match('delete_repo')).toBe(true);
    expect(match('delete_a/b/c')).toBe(true);
    expect(match('undelete_repo')).toBe(false);
    expect(match('delete')).toBe(false);
    expect(compileGlob('*')('')).toBe(true);
    expect(compileGlob('*')('any/thing\nat all')).toBe(true);
    expect(compileGlob('**')('x')).toBe(true);
    expect(compileGlob('a*b*c')('a/b/c')).toBe(true);
    expect(compileGlob('a*b*c')('abx')).toBe(false);
    expect(compileGlob('*_repo')('get_repo')).toBe(true);
  });

  it('`?` matches exactly one character (one code point)', () => {
    const match = compileGlob('v?');
    expect(match('v1')).toBe(true);
    expect(match('v/')).toBe(true);
    expect(match('v')).toBe(false);
    expect(match('v12')).toBe(false);
    expect(match('v😀')).toBe(true);
    expect(compileGlob('??')('ab')).toBe(true);
    expect(compileGlob('??')('a')).toBe(false);
  });

  it('escapes characters a regular expression would give meaning to', () => {
    expect(compileGlob('a.b*')('a.bc')).toBe(true);
    expect(compileGlob('a.b*')('axbc')).toBe(false);
    expect(compileGlob('a+*')('a+')).toBe(true);
    expect(compileGlob('a+*')('aa')).toBe(false);
    expect(compileGlob('f(*)')('f(x)')).toBe(true);
    expect(compileGlob('f(*)')('fx')).toBe(false);
    expect(compileGlob('[ab]*')('[ab]c')).toBe(true);
    expect(compileGlob('[ab]*')('a')).toBe(false);
    expect(compileGlob('{a,b}?')('{a,b}c')).toBe(true);
    expect(compileGlob('^$|\\*')('^$|\\x')).toBe(true);
    expect(compileGlob('a/b*')('a/bc')).toBe(true);
    expect(globToRegExp('a.b*?').source).toBe('^a\\.b.*.$');
  });
});

describe('tool path patterns', () => {
  it('toolPath writes the thread-wide scope as `-`; parseToolPath reads it back', () => {
    expect(toolPath(null, 'docs', 'search')).toBe('-/docs/search');
    expect(toolPath('a', 'shared', 'echo')).toBe('a/shared/echo');
    expect(toolPath('a', 'fs', 'dir/list')).toBe('a/fs/dir/list');
    expect(parseToolPath('-/docs/search')).toEqual({
      environmentId: null,
      server: 'docs',
      tool: 'search',
    });
    expect(parseToolPath('a/fs/dir/list')).toEqual({
      environmentId: 'a',
      server: 'fs',
      tool: 'dir/list',
    });
    expect(parseToolPath('a/fs')).toBeNull();
  });

  it('matches the environment, server and tool parts; `-` is the thread-wide scope', () => {
    const all = compiled('*/*/*');
    expect(all.matches(null, 'docs', 'search')).toBe(true);
    expect(all.matches('a', 'shared', 'dir/list')).toBe(true);
    expect(all.wholeServer).toBe(true);
    expect(all.source).toBe('*/*/*');

    const threadWide = compiled('-/docs/*');
    expect(threadWide.matches(null, 'docs', 'search')).toBe(true);
    expect(threadWide.matches('a', 'docs', 'search')).toBe(false);
    expect(threadWide.matches(null, 'docs2', 'search')).toBe(false);
    expect(threadWide.matchesServer(null, 'docs')).toBe(true);
    expect(threadWide.matchesServer('a', 'docs')).toBe(false);

    const env = compiled('a/shared/echo');
    expect(env.matches('a', 'shared', 'echo')).toBe(true);
    expect(env.matches(null, 'shared', 'echo')).toBe(false);
    expect(env.matches('ab', 'shared', 'echo')).toBe(false);
    expect(env.wholeServer).toBe(false);
    expect(env.matchesServer('a', 'shared')).toBe(true);
  });

  it('the tool part is everything after the second `/`, and `*` there crosses `/`', () => {
    const nested = compiled('*/fs/dir/*');
    expect(nested.matches('a', 'fs', 'dir/list')).toBe(true);
    expect(nested.matches('a', 'fs', 'dir/a/b')).toBe(true);
    expect(nested.matches('a', 'fs', 'list')).toBe(false);
    expect(nested.wholeServer).toBe(false);
    expect(compiled('*/*/get_*').matches('x', 'y', 'get_a/b')).toBe(true);
    expect(compiled('b?x/s?/t').matches('box', 's1', 't')).toBe(true);
    expect(compiled('b?x/s?/t').matches('bx', 's1', 't')).toBe(false);
  });

  it('exact tool names with special characters match only themselves', () => {
    const exact = compiled('-/docs/f(x)[1]{a}!.+');
    expect(exact.matches(null, 'docs', 'f(x)[1]{a}!.+')).toBe(true);
    expect(exact.matches(null, 'docs', 'fx1a!x+')).toBe(false);
  });

  it('refuses a pattern without two `/`, an empty part, or a part no id or name can match', () => {
    const shape = (p: string) =>
      `pattern \`${p}\` must be \`<environment>/<server>/<tool>\` (\`-\` is the thread-wide scope)`;
    expect(compileToolPathPattern('x')).toEqual({ problem: shape('x') });
    expect(compileToolPathPattern('docs/search')).toEqual({ problem: shape('docs/search') });
    expect(compileToolPathPattern('')).toEqual({ problem: shape('') });
    expect(toolPathPatternProblem('*')).toBe(shape('*'));
    expect(toolPathPatternProblem('/docs/x')).toBe(
      'pattern `/docs/x` has an empty environment part',
    );
    expect(toolPathPatternProblem('-//x')).toBe('pattern `-//x` has an empty server part');
    expect(toolPathPatternProblem('-/docs/')).toBe('pattern `-/docs/` has an empty tool part');
    expect(toolPathPatternProblem('a.b/docs/x')).toBe(
      "pattern `a.b/docs/x`: environment part `a.b` can match no environment (ids are ASCII letters, digits, '-' and '_'; `-` is the thread-wide scope)",
    );
    expect(toolPathPatternProblem('-/do cs/x')).toBe(
      "pattern `-/do cs/x`: server part `do cs` can match no server (names are ASCII letters, digits, '-' and '_')",
    );
    expect(toolPathPatternProblem('-/docs/any thing (at) all')).toBeNull();
    expect(toolPathProblem('x', 'tools key')).toBe(
      'tools key `x` must be `<environment>/<server>/<tool>` (`-` is the thread-wide scope)',
    );
  });

  it('views/glob.ts is the same matcher', () => {
    expect(viewsGlob.compileToolPathPattern).toBe(compileToolPathPattern);
    expect(viewsGlob.toolPath).toBe(toolPath);
    expect(viewsGlob.compileGlob).toBe(compileGlob);
  });
});
