/**
 * What a conversation's object knows of whether a member of its pair has a page open: the last
 * answer of that member's channel (docs/decisions/0023). While the channel said "no page" lately,
 * news only pages would hear of (a message in a quick run, a balance) costs no call: it is kept,
 * the latest of each kind, and handed over when the channel says a page has opened (it remembers
 * who it answered "no page", for as long as the answer stands) or when a later call finds one open.
 * A call that still decides something (push and mail) always goes. Times are parameters.
 */

/** How long a channel's "no page is open" stands: the channel remembers whom it told for this long. */
export const CLOSED_ANSWER_MS = 5_000;
/**
 * How long news kept back stays worth handing over after the answer it was kept under ran out: a
 * page that opened just before the end is told a moment later; older news is not sent at all (the
 * page read its badges from the database when it opened, and a stale balance could undo a newer one).
 */
const MISSED_GRACE_MS = 2_000;

type Missed<N> = { news: N; at: number };

export class PageHints<Kind extends string, News> {
  /** Per member: until when the channel's "no page" stands. */
  private readonly closedUntil = new Map<number, number>();
  /** Per member: how many times a page was reported opened (an answer from before that is stale). */
  private readonly openings = new Map<number, number>();
  /** Per member: the latest news of each kind kept back while no page was open. */
  private readonly missed = new Map<number, Map<Kind, Missed<News>>>();

  /** Whether news for the member's pages only may be kept back now (their channel lately had no page). */
  closed(profileId: number, now: number): boolean {
    const until = this.closedUntil.get(profileId);
    if (until === undefined) return false;
    if (now < until) return true;
    this.closedUntil.delete(profileId);
    return false;
  }

  /** Keep back news the member's pages would get (the latest of its kind replaces the one before). */
  keep(profileId: number, kind: Kind, news: News, now: number): void {
    let kept = this.missed.get(profileId);
    if (!kept) this.missed.set(profileId, (kept = new Map()));
    kept.set(kind, { news, at: now });
  }

  /** A call to the member's channel starts now: hand what this answers to learn() with the answer. */
  ask(profileId: number, now: number): { profileId: number; opening: number; at: number } {
    return { profileId, opening: this.openings.get(profileId) ?? 0, at: now };
  }

  /**
   * The channel answered how many pages are open. No page: news for pages only is kept back from now
   * until the answer runs out, counted from when the call started (the channel counts from its
   * answer, a little later, so it never forgets first). Pages open: the news kept back goes now.
   */
  learn(asked: { profileId: number; opening: number; at: number }, open: number, now: number): News[] {
    const { profileId } = asked;
    // A page opened after this call started: its answer of "no page" is stale.
    if ((this.openings.get(profileId) ?? 0) !== asked.opening) return [];
    if (open === 0) {
      this.closedUntil.set(profileId, Math.max(this.closedUntil.get(profileId) ?? 0, asked.at + CLOSED_ANSWER_MS));
      return [];
    }
    this.closedUntil.delete(profileId);
    return this.handOver(profileId, now);
  }

  /** The member's channel says a page of theirs has opened: the news kept back for it, to send now. */
  opened(profileId: number, now: number): News[] {
    this.openings.set(profileId, (this.openings.get(profileId) ?? 0) + 1);
    this.closedUntil.delete(profileId);
    return this.handOver(profileId, now);
  }

  private handOver(profileId: number, now: number): News[] {
    const kept = this.missed.get(profileId);
    if (!kept) return [];
    this.missed.delete(profileId);
    return [...kept.values()].filter((m) => now - m.at < CLOSED_ANSWER_MS + MISSED_GRACE_MS).map((m) => m.news);
  }
}
