import { BOOKMARK_COOKIE, BOOKMARK_MAX_AGE, BOOKMARK_PATTERN, isNewerBookmark } from "../../shared/d1-bookmark";

/**
 * A chat ack's bookmark (the conversation's object wrote the charge in D1) goes into the cookie the
 * Worker reads, so the member's next page or call reads at least that (docs/decisions/0033).
 */
export function rememberBookmark(bookmark: string | undefined): void {
  if (typeof document === "undefined" || !bookmark || !BOOKMARK_PATTERN.test(bookmark)) return;
  const current = document.cookie
    .split("; ")
    .find((cookie) => cookie.startsWith(`${BOOKMARK_COOKIE}=`))
    ?.slice(BOOKMARK_COOKIE.length + 1);
  if (!isNewerBookmark(bookmark, current)) return;
  document.cookie = `${BOOKMARK_COOKIE}=${bookmark}; path=/; max-age=${BOOKMARK_MAX_AGE}; samesite=lax${location.protocol === "https:" ? "; secure" : ""}`;
}
