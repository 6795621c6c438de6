/**
 * What a conversation's object tells its members' channels of a stored message (docs/decisions/0023):
 * the recipient of the message (their badges, chat list, push and mail) and a paying sender of their
 * balance. News only pages would hear of skips a member whose channel lately had no page open: it is
 * kept and sent when a page opens (page-hints.ts). A quick run of messages notifies push and mail
 * once (NOTICE_QUIET_MS). Kept in memory: an eviction at worst notifies once more.
 */
import type { Presence } from "../../shared/member-events";
import type { SentMessage } from "./tell";
import { PageHints } from "./page-hints";

/** After a message's push and mail notice, how long further messages to that member reach only their pages. */
export const NOTICE_QUIET_MS = 10_000;

export type NoticeKind = "message" | "balance";
/** One call to a member's channel, answered with what it knows of their pages. */
export type TellChannel = (kind: NoticeKind, sent: SentMessage) => Promise<Presence>;

export class ConversationNotices {
  /** When each member of the pair was last told of a message by push and mail. */
  private readonly noticedAt = new Map<number, number>();
  /** Whether each member of the pair has a page open, as their channel last said. */
  private readonly pages = new PageHints<NoticeKind, SentMessage>();

  constructor(
    private readonly askChannel: TellChannel,
    private readonly now: () => number = Date.now,
  ) {}

  /** A stored send, told to the recipient (the badge first) and, when it was paid, the sender's balance to the sender. */
  async tell(sent: SentMessage): Promise<void> {
    const now = this.now();
    const calls: Promise<void>[] = [];
    const tellOne = (profileId: number, kind: NoticeKind, pagesOnly: boolean) => {
      if (pagesOnly && this.pages.closed(profileId, now)) {
        this.pages.keep(profileId, kind, sent, now);
        return;
      }
      calls.push(this.call(profileId, kind, sent));
    };
    tellOne(sent.recipient, "message", sent.pagesOnly === true);
    if (sent.record.credits > 0) tellOne(sent.sender.profileId, "balance", true);
    await Promise.all(calls);
  }

  /** The member's channel says a page of theirs opened after it told this object that none was (MemberChannel.tellPageOpened). */
  async pageOpened(profileId: number): Promise<void> {
    await this.sendKept(profileId, this.pages.opened(profileId, this.now()));
  }

  /**
   * Whether the recipient was told of a message here by push and mail less than NOTICE_QUIET_MS ago:
   * then the next ones reach only their open pages (the notification already shown stands for the
   * conversation, and mail goes once per unread conversation anyway), so a fast exchange does not
   * cost push and mail work on every message. When not, this message is the one they are told of.
   */
  recentlyNoticed(recipient: number): boolean {
    const now = this.now();
    const last = this.noticedAt.get(recipient);
    if (last !== undefined && now - last < NOTICE_QUIET_MS) return true;
    this.noticedAt.set(recipient, now);
    return false;
  }

  /** The member has read everything: the next message is news for push and mail again. */
  readAll(profileId: number): void {
    this.noticedAt.delete(profileId);
  }

  /** One call to a member's channel; what it says of their pages decides the next ones. */
  private async call(profileId: number, kind: NoticeKind, sent: SentMessage): Promise<void> {
    const asked = this.pages.ask(profileId, this.now());
    const presence = await this.askChannel(kind, sent);
    await this.sendKept(profileId, this.pages.learn(asked, presence.open, this.now()));
  }

  /** News kept back for a member whose page has opened, as news for pages only. */
  private async sendKept(profileId: number, kept: SentMessage[]): Promise<void> {
    await Promise.all(
      kept.map((sent) =>
        this.call(profileId, sent.recipient === profileId ? "message" : "balance", { ...sent, pagesOnly: true }),
      ),
    );
  }
}
