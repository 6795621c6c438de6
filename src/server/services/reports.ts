import type { Translate } from "../../shared/translator";
import type { CompanyInfo } from "../../shared/settings";
import { REPORTS_PER_ADDRESS_HOUR, REPORTS_PER_HOUR, type ReportBody } from "../../shared/reports";
import type { Database } from "../db/database";
import { accountById } from "../db/accounts";
import { hasReported, insertReport, isReportableProfile } from "../db/reports";
import { AppError, fieldError } from "../errors";
import type { Mailer } from "../mail/mailer";
import { composeMail } from "../mail/templates";
import type { ConversationRooms } from "./chats";

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
 * File a complaint or a report (SPEC §2 /complaints, the Report action of a profile or a chat) and
 * mail its confirmation. A member reports with the account's address; a visitor gives one. A
 * message may be named only by a member who sees it, and names its sender as well. One reporter
 * reports one member or message once, and files at most REPORTS_PER_HOUR reports an hour.
 */
export async function fileReport(ctx: ReportContext, reporter: Reporter, body: ReportBody): Promise<{ id: number }> {
  const account = reporter ? await accountById(ctx.db, reporter.userId) : undefined;
  if (reporter && !account)
    throw new AppError({ status: 403, code: "authentication_required", key: "errors.authentication_required" });
  const email = account?.email ?? body.email;
  if (!email) throw fieldError({ status: 400, code: "invalid_parameter", field: "email", key: "validation.required" });

  let profileId = body.profile_id ?? null;
  const messageId = body.message_id ?? null;
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

  const reporterKey = reporter ? `user:${reporter.userId}` : `email:${email.toLowerCase()}`;
  const targetKey =
    messageId !== null
      ? `message:${Math.min(reporter!.profileId, peerId!)}:${Math.max(reporter!.profileId, peerId!)}:${messageId}`
      : profileId !== null
        ? `profile:${profileId}`
        : null;
  const duplicate = messageId !== null ? "reports.errors.message_reported" : "reports.errors.profile_reported";
  if (targetKey && (await hasReported(ctx.db, reporterKey, targetKey)))
    throw new AppError({ status: 409, code: "already_reported", key: duplicate });

  const id = await insertReport(
    ctx.db,
    {
      reporterKey,
      reporterUserId: reporter?.userId ?? null,
      email,
      subject: body.subject,
      description: body.description,
      targetKey,
      profileId,
      messageId,
      siteDomain: ctx.site.domain,
      language: ctx.language,
      clientAddress: ctx.clientAddress,
    },
    { perReporter: REPORTS_PER_HOUR, perAddress: REPORTS_PER_ADDRESS_HOUR },
    ctx.now,
  );
  if (id === null) {
    // Nothing stored: the same report sent twice at once, or a limit reached.
    if (targetKey && (await hasReported(ctx.db, reporterKey, targetKey)))
      throw new AppError({ status: 409, code: "already_reported", key: duplicate });
    throw new AppError({
      status: 429,
      code: "too_many_reports",
      key: "reports.errors.too_many",
      values: { count: REPORTS_PER_HOUR },
    });
  }
  console.info(JSON.stringify({ event: "report_filed", report: id, subject: body.subject, target: targetKey }));

  const name = account?.username ?? email.split("@")[0]!;
  const subject = ctx.t(`reports.subjects.${body.subject}`);
  const mail = composeMail(
    ctx.t,
    "report",
    { address: email, name },
    { name: ctx.site.name, company: ctx.company },
    `${ctx.origin}/pages/service`,
    { id, subject },
  );
  try {
    await ctx.mailer.send(mail);
  } catch (error) {
    // The report stands: it is stored and operators see it; only its confirmation failed.
    console.warn(JSON.stringify({ event: "report_mail_failed", report: id, message: (error as Error).message }));
  }
  return { id };
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
