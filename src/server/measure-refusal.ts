/**
 * What a member is told while a moderator's measure stops them (docs/decisions/0061): a chat
 * restriction refuses their sends, a suspension their sign-in and sends.
 */
import type { Refusal } from "./errors";
import { UNTIL_LIFTED } from "../shared/moderation";

/**
 * A chat restriction or suspension in force at `now` (docs/decisions/0061): the member reads until
 * when, or that it lasts until lifted, in their language. It ends by itself: this compares with now.
 */
export function measureRefusal(
  facts: { chatRestrictedUntil?: number | null; suspendedUntil?: number | null },
  now: number,
): Refusal | null {
  const until = Math.max(facts.chatRestrictedUntil ?? 0, facts.suspendedUntil ?? 0);
  if (until <= now) return null;
  const suspended = (facts.suspendedUntil ?? 0) > now;
  const code = suspended ? "suspended" : "chat_restricted";
  if (until >= UNTIL_LIFTED) return { status: 403, code, key: `moderation.enforced.${code}_until_lifted` };
  return { status: 403, code, key: `moderation.enforced.${code}`, values: { date: utcMoment(until) } };
}

/** A moment as every language reads it: 2026-12-10 14:05 UTC. */
export function utcMoment(seconds: number): string {
  return `${new Date(seconds * 1000).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
