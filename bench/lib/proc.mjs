// Process facts from /proc (Linux): peak RSS (VmHWM) of a pid and the set of a pid's descendants,
// used for the memory metric and to show that a request spawned no process.
import { readdirSync, readFileSync } from 'node:fs';

/** Peak resident set size of `pid` in MB (VmHWM), or null when unavailable. */
export function peakRssMb(pid = process.pid) {
  try {
    const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Current resident set size of `pid` in MB (VmRSS), or null. */
export function rssMb(pid = process.pid) {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * The fields of a /proc `stat` line after the parenthesised command name (which may contain
 * spaces): index 0 is field 3 (state), 1 the ppid, 11 and 12 utime and stime.
 */
function statFields(stat) {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** Pids of every live descendant of `root`. */
export function descendants(root) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const ppid = Number(statFields(stat)[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(entry));
    children.set(ppid, list);
  }
  const out = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/**
 * CPU time (user + system, ms) of `pid`'s threads from /proc: its main thread, and all the
 * others together (V8's compiler and GC helpers, libuv's pool), or null when unavailable.
 */
export function threadCpuMs(pid) {
  try {
    let main = 0;
    let others = 0;
    const tick = 1000 / 100; // USER_HZ is 100 on Linux
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const fields = statFields(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8'));
      const ms = (Number(fields[11]) + Number(fields[12])) * tick;
      if (Number(tid) === pid) main += ms;
      else others += ms;
    }
    return { main, others };
  } catch {
    return null;
  }
}
