/** The sessions list of the settings screen: GET and DELETE /api/sessions.php. */
import * as v from "valibot";

/** A session's public id (never the id its cookie carries). */
const PublicSessionId = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{16,64}$/));

/** DELETE /api/sessions.php: end one other session by its id, or every other one. */
export const EndSessionsBody = v.union([
  v.strictObject({ id: PublicSessionId }),
  v.strictObject({ others: v.literal(true) }),
]);
export type EndSessionsBody = v.InferOutput<typeof EndSessionsBody>;

/** One live session; `device` is already in the member's language, times are Unix seconds. */
export type SessionView = { id: string; device: string; created_at: number; last_used_at: number; current: boolean };
export type SessionsResponse = { sessions: SessionView[] };
