/**
 * Which conversations each login session of a member opened a chat socket in, kept by the member's
 * channel in its own storage, so that ending a session reaches every one of those conversations'
 * objects, including one with no message yet (no row in D1 names it); and which sessions ended
 * lately, so that a socket opening while its session is being ended is refused (docs/decisions/0025).
 */

/** `chat-socket:<session>:<peer>`: the session opened a chat socket to that member. */
const OPENED = "chat-socket:";
/** `ended:<session>`: the session ended at that time. */
const ENDED = "ended:";
const PRUNED_AT = "chat-sockets-pruned-at";

/**
 * How long an ended session is remembered: longer than the way from the Worker's check of a
 * socket's session to the object taking the socket, after which the Worker's own check refuses it.
 */
export const ENDED_KEPT_MS = 10 * 60_000;
/** A socket's record outlives the session that opened it (30 days at most) and then goes. */
export const OPENED_KEPT_MS = 31 * 24 * 60 * 60_000;
const PRUNE_EVERY_MS = 24 * 60 * 60_000;

type Opened = { at: number; profileId: number; peer: number };

/** A conversation the ended sessions had a socket in: whose, and with whom. */
export type OpenedConversation = { profileId: number; peer: number };

/**
 * A chat socket of `session` to `peer` opens: it is recorded (once per session and peer). False,
 * recording nothing, when the session has ended.
 */
export function chatSocketOpened(
  kv: SyncKvStorage,
  profileId: number,
  session: string,
  peer: number,
  now: number,
): boolean {
  if (hasEnded(kv, session)) return false;
  const key = `${OPENED}${session}:${peer}`;
  if (kv.get(key) === undefined) kv.put(key, { at: now, profileId, peer } satisfies Opened);
  pruneOpened(kv, now);
  return true;
}

/** Whether the session ended lately (ENDED_KEPT_MS). */
export function hasEnded(kv: SyncKvStorage, session: string): boolean {
  return kv.get(ENDED + session) !== undefined;
}

/**
 * Sessions ended: remembered as ended, and their records taken out. Answers the conversations
 * they had sockets in, each once.
 */
export function chatSocketsOfEnded(kv: SyncKvStorage, sessions: readonly string[], now: number): OpenedConversation[] {
  for (const [key, at] of kv.list<number>({ prefix: ENDED })) if (now - at > ENDED_KEPT_MS) kv.delete(key);
  const conversations = new Map<number, OpenedConversation>();
  for (const session of sessions) {
    kv.put(ENDED + session, now);
    for (const [key, opened] of kv.list<Opened>({ prefix: `${OPENED}${session}:` })) {
      conversations.set(opened.peer, { profileId: opened.profileId, peer: opened.peer });
      kv.delete(key);
    }
  }
  return [...conversations.values()];
}

/** Records of sessions that expired without being ended go, looked for once a day. */
function pruneOpened(kv: SyncKvStorage, now: number): void {
  const last = kv.get<number>(PRUNED_AT);
  if (last !== undefined && now - last < PRUNE_EVERY_MS) return;
  kv.put(PRUNED_AT, now);
  for (const [key, opened] of kv.list<Opened>({ prefix: OPENED })) if (now - opened.at > OPENED_KEPT_MS) kv.delete(key);
}
