/**
 * A minimal WebSocket client (RFC 6455) over node:http for the chat benchmark: it connects to
 * 127.0.0.1 with any Host, Origin and Cookie (a demo site is chosen by Host, and *.localhost does
 * not resolve here), which Node's global WebSocket cannot do. Text frames only, no extensions; the
 * same client measures the app's chat and the bare echo baseline, so its own cost falls on both.
 */
import { createHash, randomBytes } from "node:crypto";
import { request, type IncomingMessage } from "node:http";
import type { Socket } from "node:net";

const GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

export type SocketOptions = {
  port: number;
  /** Sent as Host (with the port) and, as http://host:port, as Origin. */
  host: string;
  path: string;
  headers?: Record<string, string>;
};

export class BenchSocket {
  closed = false;
  /** Messages that arrived before the first listen(), such as a first frame sent with the handshake. */
  private backlog: [string, number][] | null = [];
  private handler: (text: string, at: number) => void = (text, at) => this.backlog?.push([text, at]);
  private pending: Buffer = Buffer.alloc(0);
  private fragments: Buffer[] = [];
  private masks = randomBytes(4096);
  private maskAt = 0;

  private constructor(private readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => this.receive(chunk, performance.now()));
    socket.on("close", () => (this.closed = true));
    socket.on("error", () => (this.closed = true));
  }

  /** Opens the socket; rejects with the status and body if the server does not switch protocols. */
  static open({ port, host, path, headers = {} }: SocketOptions): Promise<BenchSocket> {
    const key = randomBytes(16).toString("base64");
    const expected = createHash("sha1")
      .update(key + GUID)
      .digest("base64");
    return new Promise((resolve, reject) => {
      const req = request({
        host: "127.0.0.1",
        port,
        path,
        headers: {
          host: `${host}:${port}`,
          origin: `http://${host}:${port}`,
          connection: "Upgrade",
          upgrade: "websocket",
          "sec-websocket-version": "13",
          "sec-websocket-key": key,
          ...headers,
        },
      });
      req.on("upgrade", (res: IncomingMessage, socket: Socket, head: Buffer) => {
        if (res.headers["sec-websocket-accept"] !== expected) {
          socket.destroy();
          reject(new Error(`${path}: bad Sec-WebSocket-Accept`));
          return;
        }
        const ws = new BenchSocket(socket);
        if (head.length) ws.receive(head, performance.now());
        resolve(ws);
      });
      req.on("response", (res: IncomingMessage) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => reject(new Error(`${path}: ${res.statusCode} ${body.slice(0, 300)}`)));
      });
      req.on("error", reject);
      req.end();
    });
  }

  /**
   * Every text message from now on goes to `handler`, with performance.now() when the bytes
   * carrying its end arrived; the first call also gets what arrived before it.
   */
  listen(handler: (text: string, at: number) => void): void {
    this.handler = handler;
    const backlog = this.backlog ?? [];
    this.backlog = null;
    for (const [text, at] of backlog) handler(text, at);
  }

  send(text: string): void {
    this.write(0x1, Buffer.from(text, "utf8"));
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.socket.destroy();
        resolve();
      }, 2000);
      this.socket.once("close", () => {
        clearTimeout(timer);
        resolve();
      });
      const code = Buffer.alloc(2);
      code.writeUInt16BE(1000);
      this.write(0x8, code);
    });
  }

  /** One masked frame (a client must mask every frame it sends). */
  private write(opcode: number, payload: Buffer): void {
    const length = payload.length;
    const headerLength = length < 126 ? 2 : length < 65_536 ? 4 : 10;
    const frame = Buffer.allocUnsafe(headerLength + 4 + length);
    frame[0] = 0x80 | opcode;
    if (length < 126) {
      frame[1] = 0x80 | length;
    } else if (length < 65_536) {
      frame[1] = 0x80 | 126;
      frame.writeUInt16BE(length, 2);
    } else {
      frame[1] = 0x80 | 127;
      frame.writeBigUInt64BE(BigInt(length), 2);
    }
    if (this.maskAt + 4 > this.masks.length) {
      this.masks = randomBytes(4096);
      this.maskAt = 0;
    }
    const mask = this.masks.subarray(this.maskAt, (this.maskAt += 4));
    mask.copy(frame, headerLength);
    const body = headerLength + 4;
    for (let i = 0; i < length; i++) frame[body + i] = payload[i]! ^ mask[i & 3]!;
    this.socket.write(frame);
  }

  private receive(chunk: Buffer, at: number): void {
    let buf = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    for (;;) {
      if (buf.length < 2) break;
      const fin = (buf[0]! & 0x80) !== 0;
      const opcode = buf[0]! & 0x0f;
      const masked = (buf[1]! & 0x80) !== 0;
      let length = buf[1]! & 0x7f;
      let at0 = 2;
      if (length === 126) {
        if (buf.length < 4) break;
        length = buf.readUInt16BE(2);
        at0 = 4;
      } else if (length === 127) {
        if (buf.length < 10) break;
        length = Number(buf.readBigUInt64BE(2));
        at0 = 10;
      }
      const maskAt = at0;
      if (masked) at0 += 4;
      if (buf.length < at0 + length) break;
      let payload = buf.subarray(at0, at0 + length);
      if (masked) {
        const unmasked = Buffer.allocUnsafe(length);
        for (let i = 0; i < length; i++) unmasked[i] = payload[i]! ^ buf[maskAt + (i & 3)]!;
        payload = unmasked;
      }
      buf = buf.subarray(at0 + length);
      this.frame(fin, opcode, payload, at);
    }
    // Keep only the unparsed tail (a copy, so the chunk it came from can be freed).
    this.pending = buf.length ? Buffer.from(buf) : Buffer.alloc(0);
  }

  private frame(fin: boolean, opcode: number, payload: Buffer, at: number): void {
    switch (opcode) {
      case 0x0:
      case 0x1:
      case 0x2:
        this.fragments.push(payload);
        if (fin) {
          const text = (this.fragments.length === 1 ? this.fragments[0]! : Buffer.concat(this.fragments)).toString(
            "utf8",
          );
          this.fragments = [];
          this.handler(text, at);
        }
        return;
      case 0x8:
        if (!this.closed) this.write(0x8, payload.subarray(0, 2));
        this.closed = true;
        this.socket.end();
        return;
      case 0x9:
        this.write(0xa, payload);
        return;
      default:
        return;
    }
  }
}
