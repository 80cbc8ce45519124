/**
 * Bytes on the HTTP listener's connections (`mcprt_http_{received,sent}_bytes_total`), counted
 * from the sockets themselves: nothing per request, exact for every path and protocol era
 * (headers, streamed responses and TLS records included). A closed connection's bytes are added
 * to the totals; an open one's are read when scraped.
 */

import type { Server } from 'node:net';
import type { Socket } from 'node:net';

export class HttpTraffic {
  private readonly open = new Set<Socket>();
  private closedReceived = 0;
  private closedSent = 0;

  /** Count the connections `server` accepts from now on. */
  watch(server: Server): void {
    server.on('connection', (socket: Socket) => {
      this.open.add(socket);
      socket.once('close', () => {
        this.open.delete(socket);
        this.closedReceived += socket.bytesRead;
        this.closedSent += socket.bytesWritten;
      });
    });
  }

  totals(): { received: number; sent: number } {
    let received = this.closedReceived;
    let sent = this.closedSent;
    for (const socket of this.open) {
      received += socket.bytesRead;
      sent += socket.bytesWritten;
    }
    return { received, sent };
  }
}
