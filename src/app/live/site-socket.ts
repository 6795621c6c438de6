const RECONNECT_FIRST_MS = 500;
const RECONNECT_MAX_MS = 10_000;

// Here rather than with the chat's view rules: every page opens a socket, so this is in the first download and
// the chat's rules are not.
/** The close code of a socket whose session the server ended (src/server/notices/member-channel.ts). */
export const SESSION_ENDED_CODE = 1008;

/** How long to wait before reconnect attempt `attempt` (0 first): 0.5 s, 1 s, 2 s … at most 10 s. */
export function reconnectDelay(attempt: number): number {
  return Math.min(RECONNECT_FIRST_MS * 2 ** Math.max(0, attempt), RECONNECT_MAX_MS);
}

/** The server answers this literal with a pong without waking its object; sent this often it keeps the connection open. */
const PING_INTERVAL_MS = 30_000;
const PING = '{"type":"ping"}';
const PONG = '{"type":"pong"}';

export type SiteSocket = {
  /** The open socket, or null between connections. */
  current: () => WebSocket | null;
  /** Sends when a connection is open; answers whether it did. */
  send: (text: string) => boolean;
  /** The connection is working (the server said so): the next drop reconnects at the first delay again. */
  working: () => void;
  /** Close for good. */
  stop: () => void;
};

/**
 * A WebSocket to `path` on this site that comes back after every drop, with backoff (0.5 s, 1 s,
 * 2 s … at most 10 s), and pings every 30 s. `frame` gets each text the server sends but its pongs;
 * `dropped` is told of a drop that will be reconnected (not of `stop`).
 */
export function openSiteSocket(
  path: () => string,
  on: { opened?: () => void; frame: (data: string) => void; dropped?: () => void },
): SiteSocket {
  let socket: WebSocket | null = null;
  let attempt = 0;
  let stopped = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let pingTimer: ReturnType<typeof setInterval> | undefined;

  const send = (text: string) => {
    if (socket?.readyState !== WebSocket.OPEN) return false;
    socket.send(text);
    return true;
  };

  const connect = () => {
    const current = new WebSocket(`${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}${path()}`);
    socket = current;
    current.addEventListener("open", () => {
      pingTimer = setInterval(() => send(PING), PING_INTERVAL_MS);
      on.opened?.();
    });
    current.addEventListener("message", (event) => {
      if (typeof event.data === "string" && event.data !== PONG) on.frame(event.data);
    });
    current.addEventListener("close", (event) => {
      clearInterval(pingTimer);
      if (stopped || socket !== current) return;
      socket = null;
      on.dropped?.();
      // The server ended this page's session (1008 "session ended": logged out elsewhere, the account
      // deleted): a new socket would be refused; the next login opens one of its own.
      if (event.code === SESSION_ENDED_CODE) return;
      retryTimer = setTimeout(connect, reconnectDelay(attempt++));
    });
  };

  connect();
  return {
    current: () => socket,
    send,
    working: () => {
      attempt = 0;
    },
    stop: () => {
      stopped = true;
      clearTimeout(retryTimer);
      clearInterval(pingTimer);
      socket?.close(1000);
      socket = null;
    },
  };
}
