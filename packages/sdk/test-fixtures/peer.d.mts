// Types of the scripted peer (peer.mjs) for the TypeScript tests that import it.
export interface PeerIo {
  send(message: object): void;
  sendRaw(text: string): void;
  sendChunks?(pieces: Buffer[]): void;
  stderr(text: string): void;
  exit(code: number): void;
}

export function createPeer(io: PeerIo): { receive(message: Record<string, unknown>): void };
