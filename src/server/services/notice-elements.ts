/**
 * What a notice must hold (DSA Art. 16(2), docs/decisions/0062): who sends it (a member's account
 * gives their name and address; a visitor gives them; only a notifier of child sexual abuse material
 * may stay anonymous), a good-faith statement, the category, and for illegal content the law
 * concerned. A question for support (billing, the account, personal data) needs none of that.
 */
import {
  ANONYMOUS_CATEGORY,
  basisOf,
  isSupportSubject,
  REPORT_LAW,
  type NoticeBasis,
  type ReportBody,
  type ReportQueue,
} from "../../shared/reports";
import { fieldError } from "../errors";

export type NoticeElements = {
  queue: ReportQueue;
  /** null: anonymous (then `email` may be empty, and no mail goes out). */
  name: string | null;
  email: string;
  category: string | null;
  basis: NoticeBasis | null;
  law: string | null;
  goodFaith: boolean;
};

const refuse = (field: string, key: string) => fieldError({ status: 400, code: "invalid_parameter", field, key });

/** The notice's elements from the body and the member's account (undefined for a visitor), or a 400 naming the field. */
export function noticeElements(
  body: ReportBody,
  account: { username: string; email: string } | undefined,
): NoticeElements {
  const support = isSupportSubject(body.subject);
  const anonymous = body.anonymous === true;
  if (anonymous && (support || body.category !== ANONYMOUS_CATEGORY))
    throw refuse("anonymous", "reports.errors.anonymous_only_csam");
  const name = anonymous ? null : (account?.username ?? body.name ?? "");
  const email = account && !anonymous ? account.email : (body.email ?? "");
  if (!anonymous && !email) throw refuse("email", "validation.required");
  if (support)
    return { queue: "support", name: name || null, email, category: null, basis: null, law: null, goodFaith: false };

  if (name !== null && name.length === 0) throw refuse("name", "reports.errors.name_required");
  if (!body.category) throw refuse("category", "reports.errors.category_required");
  if (body.good_faith !== true) throw refuse("good_faith", "reports.errors.good_faith_required");
  const basis = basisOf(body.subject);
  const law = basis === "illegal" ? (body.law ?? "") : null;
  if (law !== null && law.length < REPORT_LAW.min) throw refuse("law", "reports.errors.law_required");
  return { queue: "moderation", name, email, category: body.category, basis, law, goodFaith: true };
}
