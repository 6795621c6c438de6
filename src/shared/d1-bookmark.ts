/**
 * The D1 bookmark a member's browser carries (docs/decisions/0033): the state of the database their
 * last answer saw, so the next request, socket or page reads at least that (their own writes), even
 * from a read replica. Set by the Worker on its answers and by the page from a chat ack (a
 * conversation's object wrote the charge); not a secret, and worthless once replicas have caught up.
 */
export const BOOKMARK_COOKIE = "d1b";

/** A bookmark as D1 writes them (hex fields and dashes); anything else in the cookie is ignored. */
export const BOOKMARK_PATTERN = /^[0-9a-f][0-9a-f-]{7,127}$/i;

/** A week: replicas lag by seconds and an old bookmark asks nothing of a replica, so it may outlive any visit. */
export const BOOKMARK_MAX_AGE = 7 * 86_400;

/** Whether `bookmark` names a later state of the database than `than` (bookmarks sort as text, oldest first). */
export function isNewerBookmark(
  bookmark: string | null | undefined,
  than: string | null | undefined,
): bookmark is string {
  return !!bookmark && (!than || bookmark > than);
}
