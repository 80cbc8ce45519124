// How a peer process talks to the orchestrator: one JSON object per line on stdout
// (`{"event":"ready"}` the moment every server is ready, then one `{"event":"result",…}`).
export function emit(event, data = {}) {
  process.stdout.write(`${JSON.stringify({ event, ...data })}\n`);
}

/** Run `main(options)` with options from argv[2] (JSON); report a failure as a result. */
export function runPeer(main) {
  const options = JSON.parse(process.argv[2] ?? '{}');
  main(options).then(
    (result) => {
      emit('result', result);
      process.exit(0);
    },
    (error) => {
      emit('result', { error: error instanceof Error ? error.message : String(error) });
      process.exit(1);
    },
  );
}
