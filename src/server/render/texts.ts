import type { Context } from "hono";
import type { AppEnv } from "../request-context";
import { textsFileOf } from "../translations";

/** A year: the address changes with the texts, so the browser may keep each file for good. */
const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * GET /texts/<tag>.<hash>.json: a page's texts for the browser (decision 0042), outside the page so
 * each page's HTML does not carry them again and the browser keeps them between visits. An address
 * with another hash (a page of an earlier deploy) gets today's texts, not to be kept; an unknown tag 404.
 */
export async function serveTexts(c: Context<AppEnv>): Promise<Response> {
  const match = /^([a-z]{2}(?:-[A-Z]{2})?)\.([0-9a-f]{12})\.json$/.exec(c.req.param("file") ?? "");
  const file = match ? textsFileOf(match[1]!) : null;
  if (!file) return c.json({ error: "not_found", message: c.get("t")("errors.not_found") }, 404);
  const texts = await file;
  const current = texts.path === c.req.path;
  return c.body(texts.body, 200, {
    "content-type": "application/json; charset=utf-8",
    "cache-control": current ? IMMUTABLE : "no-store",
  });
}
