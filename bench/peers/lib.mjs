// mcprt's library path: `Runtime.load({home})` from the built `@mcprt/runtime`, one session over
// the home's N servers, `session.ready()`, then `session.callTool` on s0 (history on, as by
// default: every call is written to the home's history.sqlite).
import { Runtime } from '@mcprt/runtime';

import { checkEcho, measureCalls } from '../lib/calls.mjs';
import { peakRssMb } from '../lib/proc.mjs';
import { emit, runPeer } from './emit.mjs';

runPeer(async ({ home, n, fixture, mode, calls }) => {
  const runtime = Runtime.load({ home });
  const session = runtime.startSession({ cwd: home });
  await session.ready();
  const statuses = session.listStatus();
  const notReady = statuses.filter((s) => s.startupStatus !== 'ready');
  if (statuses.length !== n || notReady.length > 0) {
    throw new Error(
      `${notReady.length} of ${statuses.length} servers not ready: ${notReady[0]?.error ?? ''}`,
    );
  }
  emit('ready');
  const result = { rssMb: peakRssMb() };
  if (mode === 'latency') {
    const callOnce = () =>
      session.callTool({ server: 's0', tool: 'echo', arguments: { message: 'hi' } });
    Object.assign(result, await measureCalls(callOnce, calls, (r) => checkEcho(r, fixture)));
  }
  await runtime.close();
  return result;
});
