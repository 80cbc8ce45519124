/**
 * The glob matcher of view patterns and tool filters, for `views/`: `*` and `?` only, every other
 * character literal (no glob library: they give `[`, `{`, `!`, `(` meaning). The implementation
 * lives in `config/glob.ts`, the lowest runtime layer, because config validation (`[views.NAME]`
 * patterns) and `inventory/toolFilter.ts` use it too and may not import `views/`.
 */

export {
  compileGlob,
  compileToolPathPattern,
  globToRegExp,
  isGlobPattern,
  parseToolPath,
  THREAD_WIDE_SEGMENT,
  toolPath,
  toolPathPatternProblem,
  toolPathProblem,
} from '../config/glob.js';
export type { ToolPathPattern } from '../config/glob.js';
