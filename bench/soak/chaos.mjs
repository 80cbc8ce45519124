// The soak's chaos: every ~20 s one fault — SIGKILL a random soak server process, stall one
// (SIGSTOP for longer than its tool_timeout_sec, then SIGCONT), SIGKILL the gateway's ssh control
// master — taken in shuffled rounds so each kind happens, and exactly once per run the gateway
// itself is SIGKILLed and started again on the same port and home (`restartGateway`, given by
// soak.mjs). Every fault is logged with what it hit, or why it found nothing to hit.
import { FIXTURE, TOOL_TIMEOUT_SEC } from './gateway.mjs';
import { argvOf, controlMasters, findProcesses, signal } from './procs.mjs';

export const CHAOS_INTERVAL_MS = 20_000;
export const KINDS = ['kill-server', 'stall-server', 'kill-master'];
const STALL_MS = (TOOL_TIMEOUT_SEC + 3) * 1000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const shuffle = (xs) => {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
};

/** The live server process of `reg` (the node running the fixture, not an ssh or sh wrapper). */
export function serverPid(reg) {
  const hit = findProcesses(`--tag ${reg.tag}`).find(({ pid }) => {
    const argv = argvOf(pid);
    return argv?.[0] === process.execPath && argv[1] === FIXTURE;
  });
  return hit?.pid ?? null;
}

/**
 * The fault times of a run of `durationMs` (every 20 s, none in the last 10 s) and which of them
 * restarts the gateway: the first at or after a quarter of the run that still leaves 90 s after
 * it (so a full minute of the restarted process is measured), else the first.
 */
export function plan(durationMs) {
  const times = [];
  for (let t = CHAOS_INTERVAL_MS; t <= durationMs - 10_000; t += CHAOS_INTERVAL_MS) times.push(t);
  let restart = times.findIndex((t) => t >= durationMs / 4 && t <= durationMs - 90_000);
  if (restart < 0) restart = 0;
  return { times, restart };
}

export class Chaos {
  /** `gateway()`: the live gateway handle; `restartGateway()`: kill and start it again. */
  constructor({ kinds, regs, withSsh, gateway, restartGateway, log }) {
    this.regs = regs;
    this.kinds = kinds.filter((k) => KINDS.includes(k) && (withSsh || k !== 'kill-master'));
    if (this.kinds.length === 0) throw new Error(`--chaos: choose from ${KINDS.join(', ')}`);
    this.gateway = gateway;
    this.restartGateway = restartGateway;
    this.log = log;
    this.events = [];
    this.stalled = new Set();
    this.queue = [];
  }

  /** Run the plan from `t0` until `stopped()`; resolves after the last fault finished. */
  async run(t0, durationMs, stopped) {
    const { times, restart } = plan(durationMs);
    for (let i = 0; i < times.length; i++) {
      const wait = t0 + times[i] - Date.now();
      if (wait > 0) await sleep(wait);
      if (stopped()) break;
      if (i === restart) await this.record('restart-gateway', () => this.restartGateway());
      else await this.next();
    }
  }

  async next() {
    if (this.queue.length === 0) this.queue = shuffle(this.kinds);
    const kind = this.queue.shift();
    if (kind === 'kill-master') return this.record(kind, () => this.killMaster());
    const reg = this.regs[Math.floor(Math.random() * this.regs.length)];
    if (kind === 'kill-server') return this.record(kind, () => this.killServer(reg));
    return this.record(kind, () => this.stall(reg));
  }

  async record(kind, act) {
    const at = Date.now();
    const event = { kind, at, ...(await act()) };
    this.events.push(event);
    this.log(
      `chaos: ${kind}${event.target ? ` ${event.target}` : ''}${event.pid ? ` (pid ${event.pid})` : ''}${event.skipped ? `: skipped, ${event.skipped}` : ''}`,
    );
    return event;
  }

  killServer(reg) {
    const pid = serverPid(reg);
    if (pid === null) return { target: reg.label, skipped: 'no live process (restarting?)' };
    signal(pid, 'SIGKILL');
    return { target: reg.label, pid };
  }

  /** SIGSTOP for the tool timeout plus 3 s, in the background (the next fault is 20 s away). */
  stall(reg) {
    const pid = serverPid(reg);
    if (pid === null) return { target: reg.label, skipped: 'no live process (restarting?)' };
    signal(pid, 'SIGSTOP');
    this.stalled.add(pid);
    setTimeout(() => this.resume(pid), STALL_MS);
    return { target: reg.label, pid, stallMs: STALL_MS };
  }

  resume(pid) {
    if (this.stalled.delete(pid)) signal(pid, 'SIGCONT');
  }

  /** Every stalled process continues (cleanup: a stopped process cannot exit). */
  resumeAll() {
    for (const pid of [...this.stalled]) this.resume(pid);
  }

  killMaster() {
    const gw = this.gateway();
    const pids = gw ? controlMasters(gw.pid) : [];
    if (pids.length === 0) return { target: 'ssh master', skipped: 'no control master running' };
    for (const pid of pids) signal(pid, 'SIGKILL');
    return { target: 'ssh master', pid: pids.join(',') };
  }
}
