/**
 * The names of the Durable Objects, one per member and one per conversation: whoever calls an
 * object (a handler, a service, the clock, another object) finds it by these names alone.
 */
import { pairOf } from "../db/conversations";

/** The name of a member's channel (one object per profile). */
export const memberChannelName = (profileId: number) => `member:${profileId}`;

/** The name of a pair's conversation object. */
export const roomName = (one: number, other: number) => pairOf(one, other).join(":");
