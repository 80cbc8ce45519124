// What the soak reads from /proc (Linux): processes whose command line contains a marker (the
// soak's fixture servers, anything naming its home), the gateway's ssh control master, and a
// process's resident memory (VmRSS) and open file descriptors.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

import { descendants } from '../lib/proc.mjs';

/** The argv of `pid` (NUL-separated in /proc), or null when it is gone. */
export function argvOf(pid) {
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return raw.length === 0 ? null : raw.replace(/\0$/, '').split('\0');
  } catch {
    return null;
  }
}

/** Live pids (not this process) whose argv contains every one of `markers`. */
export function findProcesses(...markers) {
  const out = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const argv = argvOf(entry);
    if (argv === null || state(entry) === 'Z') continue;
    const line = argv.join(' ');
    if (markers.every((m) => line.includes(m))) out.push({ pid: Number(entry), cmd: line });
  }
  return out;
}

/** The one-letter state of `pid` (R, S, T, Z…), or null. */
export function state(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return null;
  }
}

/** The ssh control master(s) the gateway `pid` runs (`ssh … ControlMaster=yes …`). */
export function controlMasters(gatewayPid) {
  return descendants(gatewayPid).filter((pid) => {
    const argv = argvOf(pid);
    return argv !== null && argv[0] === 'ssh' && argv.includes('ControlMaster=yes');
  });
}

/** VmRSS in kB and the number of open descriptors of `pid`, or null when it is gone. */
export function footprint(pid) {
  try {
    const rss = Number(
      /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1],
    );
    const fds = readdirSync(`/proc/${pid}/fd`).length;
    return { rssKb: rss, fds };
  } catch {
    return null;
  }
}

/** What the descriptors of `pid` are (sockets, pipes, files), counted by kind — for the report. */
export function fdKinds(pid) {
  const kinds = {};
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      let target;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const kind = /^(\w+):/.exec(target)?.[1] ?? (target.startsWith('/') ? 'file' : 'other');
      kinds[kind] = (kinds[kind] ?? 0) + 1;
    }
  } catch {
    // gone
  }
  return kinds;
}

export function signal(pid, sig) {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
}
