/**
 * The DevTools protocol over the pipes Chromium opens with --remote-debugging-pipe (it reads commands on
 * its fd 3 and writes answers on fd 4, each message ended by a NUL byte), for puppeteer's `connect`. A
 * pipe rather than --remote-debugging-port: no port on 127.0.0.1 that any local process could drive the
 * browser through, and nothing of it outlives the browser. (Puppeteer's own PipeTransport is internal.)
 */
import type { Readable, Writable } from 'node:stream';
import type { ConnectionTransport } from 'puppeteer-core';

export class PipeTransport implements ConnectionTransport {
  onmessage?: (message: string) => void;
  onclose?: () => void;
  #pending: Buffer[] = [];
  #closed = false;

  constructor(
    private readonly toBrowser: Writable,
    fromBrowser: Readable,
  ) {
    fromBrowser.on('data', (chunk: Buffer) => this.#receive(chunk));
    fromBrowser.on('close', () => this.#end());
    // A browser that is killed breaks the pipe: that is its end, not an error of ours.
    fromBrowser.on('error', () => this.#end());
    toBrowser.on('error', () => this.#end());
  }

  send(message: string): void {
    if (this.#closed) return;
    this.toBrowser.write(`${message}\0`);
  }

  close(): void {
    this.#end();
  }

  #receive(chunk: Buffer): void {
    let start = 0;
    let end = chunk.indexOf(0);
    while (end !== -1) {
      const message = Buffer.concat([...this.#pending, chunk.subarray(start, end)]).toString('utf8');
      this.#pending = [];
      // Puppeteer expects messages one task apart, as from a socket.
      setImmediate(() => this.onmessage?.(message));
      start = end + 1;
      end = chunk.indexOf(0, start);
    }
    if (start < chunk.length) this.#pending.push(chunk.subarray(start));
  }

  #end(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.toBrowser.destroy();
    this.onclose?.();
  }
}
