import type { MessageKind } from "../../shared/chat";
import type { Database } from "../db/database";
import { memberArchive } from "../db/member-archive";
import { reportsFiledBy } from "../db/reports";
import { moneyOfCredits } from "../../shared/send-costs";
import type { CreditValue } from "../../shared/payments";
import { KIND_LEDGER_REASON } from "./chat-rules";
import { notificationsAnswer } from "./notification-choices";

/**
 * Everything held about a member, as one JSON archive they can download (beyond SPEC: the right to a
 * copy of one's data). Secrets are left out: the password hash, session ids and token hashes.
 */
/** A message of the export, as each conversation's object keeps it. */
export type ExportedMessage = {
  conversation_id: number;
  message_id: number;
  sender_id: number;
  kind: MessageKind;
  credits_charged: number;
  created_at: number;
};

export async function exportMemberData<M extends ExportedMessage>(
  db: Database,
  userId: number,
  chatMessages: (profileId: number) => Promise<M[]>,
  /** What a credit is worth to the member, as the chat shows it: each charge's money beside its credits (docs/decisions/0064). */
  creditValue: CreditValue,
): Promise<Record<string, unknown>> {
  const [archive, reports, notifications] = await Promise.all([
    memberArchive(db, userId),
    reportsFiledBy(db, userId),
    notificationsAnswer(db, userId),
  ]);
  const { account, profile, ...held } = archive;
  // The messages live in each conversation's object.
  const all = profile ? await chatMessages(profile.id) : [];
  // What the other member paid for their messages is theirs: the chat never shows it, nor does this.
  const messages = all.map((m) => {
    if (m.sender_id === profile?.id) return m;
    const { credits_charged, ...theirs } = m;
    void credits_charged;
    return theirs;
  });
  // The ledger keeps one row per conversation and day of a member's chat charges (docs/decisions/0033);
  // each charge is listed here from the message it paid for.
  const chat_charges = all
    .filter((m) => m.sender_id === profile?.id && m.credits_charged > 0)
    .map((m) => ({
      conversation_id: m.conversation_id,
      message_id: m.message_id,
      reason: KIND_LEDGER_REASON[m.kind],
      credits: m.credits_charged,
      money: moneyOfCredits(m.credits_charged, creditValue),
      created_at: m.created_at,
    }));
  const { interests, photos, likes, blocks, credits, ...rest } = held;
  return {
    exported_at: new Date().toISOString(),
    account,
    profile,
    interests,
    photos,
    likes,
    blocks,
    messages,
    credits,
    credit_value: creditValue,
    chat_charges,
    ...rest,
    reports,
    notifications,
  };
}
