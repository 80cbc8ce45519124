// mcprt serve under load and chaos (issue 34), a benchmark script, not a test:
//   npm run soak -- [--minutes 10] [--clients 16] [--json FILE] [--no-ssh] [--pause-ms 25] [--keep]
//                   [--chaos kill-server,stall-server,kill-master] [--tolerate unknown-tool,unrecovered]
// One gateway (`mcprt serve --listen http://127.0.0.1:0`, own home and token file) in front of the
// soak server (bench/soak/fixtures) as `alpha` (2025-11-25) and `beta` (2026-07-28) in the local
// environment, an exec environment `box` and an ssh environment `remote` on a real sshd on
// 127.0.0.1 (a missing sshd fails the run unless `--no-ssh` leaves that environment out). The
// clients, half of each era, call tools, read resources and answer elicitations continuously (a
// pause of ~25 ms between a client's operations). Every ~20 s a fault (bench/soak/chaos.mjs:
// `--chaos` chooses the kinds), and exactly once the gateway is SIGKILLed and started again on the
// same port and home. `--keep` keeps the run folder (the gateway's stderr, the home). The rules
// (exit 1 when one fails; `--tolerate` shows a known product bug's rule without failing on it):
// - every operation succeeded, failed naming its registration, was a documented decline, or —
//   around the gateway's restart only — failed at the transport: at most the calls in flight at the
//   kill, plus at most one call per client sent before it noticed (bench/soak/report.mjs); every
//   registration answers again in the last 10 s;
// - the history has exactly one record per tool call the gateway answered, none twice, none
//   unknown (bench/soak/history.mjs); no soak process is left 3 s after the gateway stopped;
// - memory: VmRSS and open descriptors of the gateway, sampled every 5 s; a minute's value is the
//   median of its samples; the last minute before the stop within 10 % of the restarted gateway's
//   second minute (its first is V8's heap warming up; a short run falls back to the first:
//   bench/soak/report.mjs; the first gateway's samples are in the JSON).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';

import { Chaos } from './soak/chaos.mjs';
import { SoakClients } from './soak/clients.mjs';
import {
  registrations,
  restartGateway,
  startGateway,
  writeHome,
  writeToken,
} from './soak/gateway.mjs';
import { checkHistory } from './soak/history.mjs';
import { findProcesses, footprint, signal } from './soak/procs.mjs';
import { summarize } from './soak/report.mjs';
import { printReport, writeJson } from './soak/table.mjs';
import { findSshd, startSshd } from './soak/sshd.mjs';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    clients: { type: 'string', default: '16' },
    json: { type: 'string' },
    'no-ssh': { type: 'boolean', default: false },
    'pause-ms': { type: 'string', default: '25' },
    keep: { type: 'boolean', default: false },
    chaos: { type: 'string', default: 'kill-server,stall-server,kill-master' },
    tolerate: { type: 'string', default: '' },
  },
});
const options = {
  minutes: Number(values.minutes),
  clients: Number(values.clients),
  ssh: !values['no-ssh'],
  pauseMs: Number(values['pause-ms']),
  chaos: values.chaos.split(',').filter(Boolean),
  tolerate: values.tolerate.split(',').filter(Boolean),
};
if (!(options.minutes > 0) || !(options.clients >= 1) || !(options.pauseMs >= 0)) {
  console.error(
    'usage: npm run soak -- [--minutes N] [--clients N] [--json FILE] [--no-ssh] [--pause-ms N] [--keep] [--chaos K,…] [--tolerate B,…]',
  );
  process.exit(2);
}
if (options.ssh && findSshd() === null) {
  console.error(
    'soak: sshd not found (openssh-server; `npm test` installs it: scripts/setup-system.mjs). Run with --no-ssh to leave the ssh environment out.',
  );
  process.exit(2);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const t0 = Date.now();
const log = (line) =>
  console.error(`[+${String(Math.round((Date.now() - t0) / 1000)).padStart(4)} s] ${line}`);
const dir = realpathSync(mkdtempSync(join(tmpdir(), 'mcprt-soak-')));
const tag = basename(dir);
let sshd = null;
let gateway = null;
let chaos = null;
const samples = [];
let sampler = null;

/** Kill everything the soak started: the gateway, stalled and leftover servers, sshd. */
function cleanup() {
  clearInterval(sampler);
  chaos?.resumeAll();
  if (gateway && gateway.child.exitCode === null) signal(gateway.pid, 'SIGKILL');
  for (const { pid } of [...findProcesses(tag), ...findProcesses(dir)]) signal(pid, 'SIGKILL');
  sshd?.stop();
  if (!values.keep) rmSync(dir, { recursive: true, force: true });
}
let interrupted = false;
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`soak: ${sig}, cleaning up`);
    cleanup();
    process.exit(130);
  });
}

function sample() {
  const fp = gateway ? footprint(gateway.pid) : null;
  if (fp)
    samples.push({
      generation: gateway.generation,
      sinceStartMs: Date.now() - gateway.startedAt,
      atMs: Date.now() - t0,
      ...fp,
    });
}

/** Sample the current gateway every 5 s from its start (restarted with it). */
function startSampling() {
  clearInterval(sampler);
  sampler = setInterval(sample, 5_000);
}

async function main() {
  const regs = registrations(tag, options.ssh);
  if (options.ssh)
    sshd = await startSshd(mkdtempSync(join(dir, 'sshd-')), mkdtempSync(join(dir, 'remote-home-')));
  const home = writeHome(dir, regs, sshd);
  const token = randomBytes(24).toString('hex');
  const tokenFile = writeToken(dir, token);
  gateway = await startGateway({ dir, home, tokenFile, port: 0, generation: 1 });
  log(
    `mcprt serve (pid ${gateway.pid}) at ${gateway.url}; home ${home}; ${regs.length} registrations`,
  );
  startSampling();
  const live = { url: gateway.url, token, generation: 1, down: false };
  const clients = new SoakClients({
    count: options.clients,
    gateway: live,
    regs,
    pauseMs: options.pauseMs,
  });
  let restart = null;
  const restartOnce = async () => {
    const inFlight = clients.inFlight().length;
    const old = gateway;
    live.down = true;
    signal(old.pid, 'SIGKILL');
    const killedAt = Date.now();
    await old.exited;
    gateway = await restartGateway({
      dir,
      home,
      tokenFile,
      port: old.port,
      generation: old.generation + 1,
    });
    startSampling();
    live.generation = gateway.generation;
    live.down = false;
    restart = {
      killedAt,
      atMs: killedAt - t0,
      restartedInMs: Date.now() - killedAt,
      inFlight,
      generation: gateway.generation,
      pid: gateway.pid,
    };
    return { target: `mcprt serve (pid ${old.pid} → ${gateway.pid})`, pid: old.pid, inFlight };
  };
  chaos = new Chaos({
    kinds: options.chaos,
    regs,
    withSsh: options.ssh,
    gateway: () => gateway,
    restartGateway: restartOnce,
    log,
  });
  const durationMs = options.minutes * 60_000;
  clients.start();
  let over = false;
  const progress = setInterval(
    () => log(`${clients.records.length} operations, ${clients.connects} connects`),
    30_000,
  );
  const chaosDone = chaos.run(Date.now(), durationMs, () => over);
  await sleep(durationMs);
  over = true;
  clearInterval(progress);
  sample(); // the last sample, just before the stop
  const endAt = Date.now();
  const endAtMs = endAt - t0;
  clearInterval(sampler);
  await chaosDone;
  chaos.resumeAll();
  log('stopping the clients');
  await clients.stop();
  log('stopping mcprt serve (SIGTERM)');
  signal(gateway.pid, 'SIGTERM');
  const stopped = await Promise.race([
    gateway.exited.then(() => true),
    sleep(15_000).then(() => false),
  ]);
  if (!stopped) log('mcprt serve did not exit within 15 s of SIGTERM');
  await sleep(3000);
  // sshd (still running, so a remote server left behind would show) names the soak folder too.
  const leaks = [...findProcesses(tag), ...findProcesses(dir)].filter(
    (p, i, all) => p.pid !== sshd?.pid && all.findIndex((q) => q.pid === p.pid) === i,
  );
  if (!stopped) leaks.push({ pid: gateway.pid, cmd: 'mcprt serve (did not exit on SIGTERM)' });
  const history = await checkHistory(home, clients.records);
  const gatewayLog = readdirSync(dir)
    .filter((f) => /^gateway-\d+\.log$/.test(f))
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
  const summary = summarize({
    endAt,
    endAtMs,
    gatewayLog,
    options,
    records: clients.records,
    restart,
    chaos: chaos.events,
    crossed: clients.crossed,
    history,
    leaks,
    samples,
  });
  printReport(summary);
  if (values.json) writeJson(values.json, summary);
  return summary.pass;
}

let pass = false;
try {
  pass = await main();
} catch (error) {
  console.error(`soak: ${error?.stack ?? error}`);
} finally {
  cleanup();
}
if (values.keep) console.error(`soak: kept ${dir}`);
process.exit(pass ? 0 : 1);
