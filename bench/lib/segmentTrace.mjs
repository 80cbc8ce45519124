// Preloaded into a process under test (`node --import bench/lib/segmentTrace.mjs …`) by
// bench/segments.mjs: timestamps every chunk the process reads from a socket or pipe and every
// write it makes, split into its own stdin/stdout (its client) and the rest (its servers), and
// writes them as JSON to MCPRT_SEGMENT_OUT when the process exits. Patching `Socket.prototype`
// costs a few hundred nanoseconds per read and write — small next to the segments it measures.
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import { performance } from 'node:perf_hooks';

const out = process.env.MCPRT_SEGMENT_OUT;
if (out) {
  /** [kind, start ms, end ms]: in (client → us), out (us → client), srv (us → server), back. */
  const events = [];
  const write = net.Socket.prototype.write;
  net.Socket.prototype.write = function (...args) {
    const start = performance.now();
    const done = write.apply(this, args);
    events.push([this === process.stdout ? 'out' : 'srv', start, performance.now()]);
    return done;
  };
  const emit = net.Socket.prototype.emit;
  net.Socket.prototype.emit = function (name, ...args) {
    if (name !== 'data') return emit.call(this, name, ...args);
    const start = performance.now();
    const done = emit.call(this, name, ...args);
    events.push([this === process.stdin ? 'in' : 'back', start, performance.now()]);
    return done;
  };
  process.on('exit', () => writeFileSync(out, JSON.stringify(events)));
}
