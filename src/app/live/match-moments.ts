/**
 * The match moment's one slot (issue 23): whatever page is open, a match (from the member channel,
 * or the like that made it on this page) fills it, and the moment shows until the member leaves it.
 * The same match heard twice (the like's answer and the channel's frame) shows once.
 */
import type { MainImage } from "../../shared/api";

export type MatchPeer = {
  id: number;
  name: string;
  /** Public main photo's match path, null without one. */ photo: string | null;
  /** Whether a moderator verified them (their badge shows). */ verified?: boolean;
};

/** The peer of a match as a card or a profile shows them: name, public main photo, badge. */
export function matchPeerOf(profile: {
  id: number;
  name: string;
  main_image: MainImage | null;
  verified?: boolean;
}): MatchPeer {
  return {
    id: profile.id,
    name: profile.name,
    photo: profile.main_image?.match ?? null,
    verified: profile.verified === true,
  };
}

/** A match with the same member heard again within this time is the same match. */
const SAME_MATCH_MS = 60_000;

let current: MatchPeer | null = null;
const shownAt = new Map<number, number>();
const listeners = new Set<() => void>();

const changed = () => listeners.forEach((listener) => listener());

/** Show the moment of a match with `peer`, unless it is showing or was shown moments ago. */
export function showMatchMoment(peer: MatchPeer, now = Date.now()): void {
  const last = shownAt.get(peer.id);
  if (current?.id === peer.id || (last !== undefined && now - last < SAME_MATCH_MS)) return;
  shownAt.set(peer.id, now);
  current = peer;
  changed();
}

export function closeMatchMoment(): void {
  if (current === null) return;
  current = null;
  changed();
}

export function subscribeMatchMoment(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const currentMatchMoment = (): MatchPeer | null => current;
/** No page is rendered on the server with a moment open. */
export const noMatchMoment = (): MatchPeer | null => null;
