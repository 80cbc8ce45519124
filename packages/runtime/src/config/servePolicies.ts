/**
 * Validation of `[[serve.policies]]` (shape in serveTypes.ts; docs/gateway.md): which view and
 * environments each caller of `mcprt serve` may list and call.
 *
 *   [[serve.policies]]
 *   name = "contractors"          # required, unique, [A-Za-z0-9_-]+
 *   groups = ["contractors"]      # subjects, clients, groups, scopes: `*`/`?` globs (absent: any)
 *   view = "readonly"             # a [views.NAME] (absent: the gateway's view)
 *   environments = ["staging"]    # environment ids, `-` for thread-wide (absent: the gateway's)
 *
 * **Fails closed.** Policies only ever narrow what a caller gets, so a problem in them must never
 * widen it. Dropping just the entry in error would: its callers would fall through to a later,
 * broader entry (a catch-all). Ignoring a key would too: a misspelt condition (`subject`) makes
 * the entry match every caller, a misspelt `veiw` grants the gateway's whole view. So when any
 * entry has a problem — an error (a wrong type, a missing, malformed or duplicate `name`, a
 * `view` that is not defined or is itself invalid, a malformed environment id, an entry that is
 * no table, `policies` that is no array of tables) or an unknown key — the whole list is replaced
 * by one entry that matches no caller ({@link INVALID_POLICIES_NAME}, every condition an empty
 * list): there are policies and none matches, so every caller is refused until the file is fixed.
 *
 * Diagnostics follow views.ts: errors are error diagnostics (`file:line:column:
 * serve.policies[1].view: …`), unknown keys warnings (``unknown key `k` ``), `strict` throws them
 * all. Because a lockout must not go unnoticed — error diagnostics are shown only with `--strict`
 * — it is also said once as a warning at `serve.policies`, with the first problem. A `view`
 * naming an invalid view gets no diagnostic of its own (the view's error is reported), only that
 * warning. Other warnings, which change nothing: a condition list that is empty (it matches no
 * caller, so the entry never applies) and an entry with no condition that is not the last (it
 * matches every caller; the entries after it are never reached).
 *
 * Locations: the locator stops at array indices (locate.ts), so every entry's diagnostics point
 * at the first `[[serve.policies]]` header; the key path (`serve.policies[2].view`) names the
 * entry exactly.
 */

import type { Context } from './diagnostics.js';
import { Sink } from './diagnostics.js';
import { Fields, isTable, typeName } from './fields.js';
import type { KeyPath } from './locate.js';
import type { ServePolicyConfig } from './serveTypes.js';

/** Policy names (`name`). */
export const POLICY_NAME_PATTERN = /^[A-Za-z0-9_-]+$/;

/** Environment ids in `environments` (`-`: the thread-wide servers, as in view paths). */
const ENVIRONMENT_ID_PATTERN = /^[A-Za-z0-9_-]+$/;

/**
 * The name of the entry that replaces a `[[serve.policies]]` list with a problem: it matches no
 * caller. Outside {@link POLICY_NAME_PATTERN}, so no configured entry can have it.
 */
export const INVALID_POLICIES_NAME = '(invalid [[serve.policies]])';

const POLICY_KEYS = new Set([
  'name',
  'subjects',
  'clients',
  'groups',
  'scopes',
  'view',
  'environments',
]);
const CONDITION_KEYS = ['subjects', 'clients', 'groups', 'scopes'] as const;

/** What `readServePolicies` needs of the views: the valid ones, and the invalid ones' names. */
export interface PolicyViews {
  readonly views: readonly { readonly name: string }[];
  readonly invalidViews?: readonly { readonly name: string }[];
}

/** Reads `serve.policies` of the `[serve]` table `serve`; see the module header. */
export function readServePolicies(
  ctx: Context,
  serve: Fields,
  views: PolicyViews,
): ServePolicyConfig[] {
  if (!serve.has('policies')) return [];
  const sink = new Sink(ctx);
  const listPath = serve.at('policies');
  /** The first problem (error, unknown key, invalid view), in file order of the entries. */
  let firstProblem: string | null = null;
  const problem = (path: KeyPath, text: string, severity: 'error' | 'warning' | null): void => {
    if (severity === 'error') sink.error(path, text);
    else if (severity === 'warning') sink.warn(path, text);
    if (firstProblem === null) {
      const location = ctx.location(path);
      firstProblem = `${location.keyPath}: ${text}`;
    }
  };

  const raw = serve.table['policies'];
  const policies: ServePolicyConfig[] = [];
  if (!Array.isArray(raw)) {
    problem(
      listPath,
      `expected an array of tables ([[serve.policies]]), found ${typeName(raw)}`,
      'error',
    );
  } else {
    /** Name → the key path of the entry that has it. */
    const names = new Map<string, string>();
    const warn = (path: KeyPath, text: string): void => sink.warn(path, text);
    raw.forEach((entry: unknown, index) => {
      const path = [...listPath, index];
      const policy = readPolicy(ctx, path, entry, names, views, { problem, warn });
      if (policy !== null) policies.push(policy);
    });
  }

  if (firstProblem !== null) {
    sink.warn(
      listPath,
      `[[serve.policies]] is not applied: every caller of \`mcprt serve\` is refused until it is fixed (first problem: ${firstProblem})`,
    );
    return [
      {
        name: INVALID_POLICIES_NAME,
        subjects: [],
        clients: [],
        groups: [],
        scopes: [],
        view: null,
        environments: [],
        location: ctx.location(listPath),
      },
    ];
  }

  policies.forEach((policy, index) => {
    if (index === policies.length - 1) return;
    if (CONDITION_KEYS.every((key) => policy[key] === null)) {
      sink.warn(
        [...listPath, index],
        `policy \`${policy.name}\` has no subjects, clients, groups or scopes: it matches every caller, so the entries after it are never reached`,
      );
    }
  });
  return policies;
}

interface Report {
  /** A problem that fails the list (`severity` null: no diagnostic of its own). */
  readonly problem: (path: KeyPath, text: string, severity: 'error' | 'warning' | null) => void;
  /** A warning that changes nothing. */
  readonly warn: (path: KeyPath, text: string) => void;
}

/** One entry, or null when it has a problem (reported through `problem`). */
function readPolicy(
  ctx: Context,
  path: KeyPath,
  raw: unknown,
  names: Map<string, string>,
  views: PolicyViews,
  { problem, warn }: Report,
): ServePolicyConfig | null {
  if (!isTable(raw)) {
    problem(path, `expected a table, found ${typeName(raw)}`, 'error');
    return null;
  }
  let ok = true;
  const error = (p: KeyPath, text: string): void => {
    ok = false;
    problem(p, text, 'error');
  };
  const f = new Fields(raw, path, error);
  f.unknownKeys(POLICY_KEYS, (p, text) => {
    ok = false;
    problem(p, text, 'warning');
  });

  const name = f.string('name');
  if (!f.has('name')) error(path, 'missing field `name`');
  else if (name !== null) {
    if (!POLICY_NAME_PATTERN.test(name)) {
      error(f.at('name'), `invalid policy name \`${name}\`: must match pattern ^[A-Za-z0-9_-]+$`);
    } else {
      const first = names.get(name);
      if (first !== undefined) {
        error(f.at('name'), `policy name \`${name}\` is already used by ${first}`);
      } else names.set(name, ctx.location(path).keyPath);
    }
  }

  const [subjects, clients, groups, scopes] = CONDITION_KEYS.map((key) => {
    const list = f.stringArray(key);
    if (list !== null && list.length === 0) {
      // Safe (it narrows): the entry is kept and never applies.
      warn(f.at(key), `an empty list matches no caller: policy \`${name ?? '?'}\` never applies`);
    }
    return list;
  }) as [string[] | null, string[] | null, string[] | null, string[] | null];

  const view = f.string('view');
  if (view !== null && !views.views.some((v) => v.name === view)) {
    if (views.invalidViews?.some((v) => v.name === view) === true) {
      // The view's own error is reported; this entry cannot be honoured, so the list fails.
      ok = false;
      problem(f.at('view'), `view \`${view}\` is invalid`, null);
    } else {
      const defined = views.views.map((v) => `\`${v.name}\``).join(', ');
      error(
        f.at('view'),
        `view \`${view}\` is not defined in [views]${defined === '' ? '' : ` (defined: ${defined})`}`,
      );
    }
  }

  const environments = f.stringArray('environments');
  environments?.forEach((id, index) => {
    if (!ENVIRONMENT_ID_PATTERN.test(id)) {
      error(
        [...f.at('environments'), index],
        `environment id \`${id}\` must contain only ASCII letters, numbers, '-' or '_' (\`-\`: the thread-wide servers)`,
      );
    }
  });

  if (!ok || name === null) return null;
  return {
    name,
    subjects,
    clients,
    groups,
    scopes,
    view,
    environments,
    location: ctx.location(path),
  };
}
