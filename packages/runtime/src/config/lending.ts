/**
 * What a registration from a remote host's own config (untrusted) may borrow from this machine:
 * only the variables `[environments.<id>]` lends (`remote_allow_env_vars`). The message that
 * names a variable it may not read, shared by the server table and its `[oauth]` table.
 */

/** Why an untrusted registration may not read this machine's variable `name`. */
export function notLent(name: string, environmentId: string): string {
  return `\`${name}\` is a variable of this machine: registrations from the remote host's own config may only read \`source = "remote"\` variables (to lend it, list it in \`remote_allow_env_vars\` of [environments.${environmentId}] in this machine's config)`;
}
