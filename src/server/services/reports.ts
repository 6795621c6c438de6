import type { Translate } from "../../shared/translator";
import type { CompanyInfo } from "../../shared/settings";
import {
  REPORTS_PER_ADDRESS_HOUR,
  REPORTS_PER_HOUR,
  reportLocation,
  type ReportBody,
  type ReportQueue,
} from "../../shared/reports";
import type { Database } from "../db/database";
import { accountById } from "../db/accounts";
import { hasReported, insertReport, isReportablePhoto, isReportableProfile } from "../db/reports";
import { AppError, fieldError } from "../errors";
import type { Mailer } from "../mail/mailer";
import { composeMail } from "../mail/templates";
import type { ConversationRooms } from "./chats";
import { noticeElements } from "./notice-elements";

type ReportContext = {
  db: Database;
  /** The conversations' objects, which keep the messages a report may name. */
  rooms: ConversationRooms;
  mailer: Mailer;
  /** The translate function of the reporter's language: the confirmation is written in it. */
  t: Translate;
  language: string;
  site: { name: string; domain: string };
  /** The company behind the site, named at the foot of the confirmation. */
  company: CompanyInfo | null;
  origin: string;
  clientAddress: string;
  now: number;
};

/** Who files: a member (by their session) or a visitor of /complaints (by the address they give). */
export type Reporter = { userId: number; profileId: number } | null;

/**
 * File a complaint or a report (SPEC §2 /complaints, the Report action of a profile, a photo or a
 * chat message) and mail its confirmation. A notice about content carries the Art. 16(2) elements
 * (noticeElements) and goes to the moderators; a question goes to support. A message may be named
 * only by a member who sees it, and names its sender as well; a photo names its profile. One
 * reporter reports one member, photo or message once, and files at most REPORTS_PER_HOUR an hour.
 */
export async function fileReport(
  ctx: ReportContext,
  reporter: Reporter,
  body: ReportBody,
): Promise<{ id: number; queue: ReportQueue }> {
  const account = reporter ? await accountById(ctx.db, reporter.userId) : undefined;
  if (reporter && !account)
    throw new AppError({ status: 403, code: "authentication_required", key: "errors.authentication_required" });
  const notice = noticeElements(body, account);
  const target = await reportTarget(ctx, reporter, body);

  const reporterKey = reporter
    ? `user:${reporter.userId}`
    : notice.email
      ? `email:${notice.email.toLowerCase()}`
      : `anonymous:${ctx.clientAddress}`;
  const duplicate =
    target.messageId !== null
      ? "reports.errors.message_reported"
      : target.photoId !== null
        ? "reports.errors.photo_reported"
        : "reports.errors.profile_reported";
  if (target.key && (await hasReported(ctx.db, reporterKey, target.key)))
    throw new AppError({ status: 409, code: "already_reported", key: duplicate });

  const id = await insertReport(
    ctx.db,
    {
      reporterKey,
      // An anonymous notifier is not linked to their account either.
      reporterUserId: notice.name === null ? null : (reporter?.userId ?? null),
      email: notice.email,
      subject: body.subject,
      description: body.description,
      targetKey: target.key,
      profileId: target.profileId,
      messageId: target.messageId,
      photoId: target.photoId,
      location:
        target.profileId === null
          ? (body.location ?? null)
          : reportLocation(ctx.origin, target as { profileId: number }),
      reporterName: notice.name,
      goodFaith: notice.goodFaith,
      category: notice.category,
      basis: notice.basis,
      law: notice.law,
      queue: notice.queue,
      siteDomain: ctx.site.domain,
      language: ctx.language,
      clientAddress: ctx.clientAddress,
    },
    { perReporter: REPORTS_PER_HOUR, perAddress: REPORTS_PER_ADDRESS_HOUR },
    ctx.now,
  );
  if (id === null) {
    // Nothing stored: the same report sent twice at once, or a limit reached.
    if (target.key && (await hasReported(ctx.db, reporterKey, target.key)))
      throw new AppError({ status: 409, code: "already_reported", key: duplicate });
    throw new AppError({
      status: 429,
      code: "too_many_reports",
      key: "reports.errors.too_many",
      values: { count: REPORTS_PER_HOUR },
    });
  }
  console.info(
    JSON.stringify({
      event: "report_filed",
      report: id,
      subject: body.subject,
      target: target.key,
      queue: notice.queue,
    }),
  );
  if (notice.email)
    await confirmReport(ctx, {
      id,
      email: notice.email,
      name: notice.name,
      subject: body.subject,
      queue: notice.queue,
    });
  return { id, queue: notice.queue };
}

type Target = { key: string | null; profileId: number | null; messageId: number | null; photoId: number | null };

/** What the report names, checked: the message's sender, the photo's profile, a profile that is shown. */
async function reportTarget(ctx: ReportContext, reporter: Reporter, body: ReportBody): Promise<Target> {
  let profileId = body.profile_id ?? null;
  const messageId = body.message_id ?? null;
  const photoId = messageId === null ? (body.photo_id ?? null) : null;
  // A message's id counts within its conversation, the pair of the reporter and the other member
  // (`profile_id`): the report names both.
  const peerId = profileId;
  if (messageId !== null) {
    if (!reporter)
      throw new AppError({ status: 403, code: "authentication_required", key: "reports.errors.login_for_message" });
    const sender =
      peerId === null || peerId === reporter.profileId
        ? undefined
        : await messageSender(ctx.rooms, reporter.profileId, peerId, messageId);
    if (sender === undefined)
      throw fieldError({
        status: 404,
        code: "message_not_found",
        field: "message_id",
        key: "reports.errors.message_not_found",
      });
    if (sender !== peerId)
      throw fieldError({
        status: 400,
        code: "invalid_parameter",
        field: "profile_id",
        key: "reports.errors.message_of_other_member",
      });
    profileId = sender;
  }
  if (photoId !== null && profileId === null)
    throw fieldError({ status: 400, code: "invalid_parameter", field: "profile_id", key: "validation.required" });
  if (profileId !== null) {
    if (reporter?.profileId === profileId)
      throw fieldError({ status: 400, code: "own_profile", field: "profile_id", key: "reports.errors.own_profile" });
    if (!(await isReportableProfile(ctx.db, profileId)))
      throw fieldError({
        status: 404,
        code: "profile_not_found",
        field: "profile_id",
        key: "reports.errors.profile_not_found",
      });
  }
  if (photoId !== null && !(await isReportablePhoto(ctx.db, photoId, profileId!)))
    throw fieldError({
      status: 404,
      code: "photo_not_found",
      field: "photo_id",
      key: "reports.errors.photo_not_found",
    });
  const key =
    messageId !== null
      ? `message:${Math.min(reporter!.profileId, peerId!)}:${Math.max(reporter!.profileId, peerId!)}:${messageId}`
      : photoId !== null
        ? `photo:${photoId}`
        : profileId !== null
          ? `profile:${profileId}`
          : null;
  return { key, profileId, messageId, photoId };
}

/** The confirmation (Art. 16(4)): the report's number, and who reads it, in the notifier's language. */
async function confirmReport(
  ctx: ReportContext,
  report: { id: number; email: string; name: string | null; subject: string; queue: ReportQueue },
): Promise<void> {
  const mail = composeMail(
    ctx.t,
    report.queue === "support" ? "support_question" : "report",
    { address: report.email, name: report.name ?? report.email.split("@")[0]! },
    { name: ctx.site.name, company: ctx.company },
    `${ctx.origin}/pages/service`,
    { id: report.id, subject: ctx.t(`reports.subjects.${report.subject}`) },
  );
  try {
    await ctx.mailer.send(mail);
  } catch (error) {
    // The report stands: it is stored and operators see it; only its confirmation failed.
    console.warn(JSON.stringify({ event: "report_mail_failed", report: report.id, message: (error as Error).message }));
  }
}

/** The sender of a message of the conversation between two members, as the viewer sees it; undefined when there is none. */
async function messageSender(
  rooms: ConversationRooms,
  viewer: number,
  peer: number,
  messageId: number,
): Promise<number | undefined> {
  const page = await rooms(viewer, peer).history(viewer, peer, messageId + 1, 0);
  return page.rows.find((row) => row.id === messageId)?.sender_id;
}
