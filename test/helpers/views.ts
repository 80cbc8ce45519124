/**
 * The views the view tests share (docs/tool-shaping.md): `review` — `echo` and `whoami` of every
 * `shared`, every tool of a thread-wide `docs` but `fail`, stable names, no search, a threshold of
 * 50 tokens so that it is over it, and `echo` of `shared@a` renamed `echo_a`; `lookup` — every
 * tool of `shared@a` behind tool search, `echo` always listed; `bad` — an invalid pattern.
 */

/** `[views.review]`; `override` adds keys to its `a/shared/echo` override (`title = …`). */
export function reviewView(override = ''): string {
  return `
[views.review]
include = ["*/shared/echo", "*/shared/whoami", "-/docs/*"]
exclude = ["-/docs/fail"]
tool_prefix = "always"
tool_search = "off"
tool_search_threshold_tokens = 50

[views.review.tools."a/shared/echo"]
name = "echo_a"
${override}
`;
}

/** `review`, `lookup` and the invalid `bad`. */
export const REVIEW_LOOKUP_BAD = `${reviewView()}
[views.lookup]
include = ["a/shared/*"]
tool_search = "always"
always_load = ["a/shared/echo"]

[views.bad]
include = ["a/shared"]
`;
