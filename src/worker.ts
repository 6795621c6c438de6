import { app } from "./server/app";
import { databaseOf } from "./server/db/database";
import { purgeDeletedAccounts } from "./server/services/accounts";
import { purgeUnsentChatPhotos } from "./server/services/chat-photos";
import { forgetPastSwipes } from "./server/services/likes";
import { runMailClock } from "./server/notices/mail-notices";
import { outboxRetentionDays, runRetention } from "./server/services/retention";
import { chatErasureIn } from "./server/services/chats";
import { receiveMail } from "./server/services/notification-choices";
import { runRefundClock } from "./server/services/refunds";
import { settleUnanswered } from "./server/services/unanswered-orders";
import { submitStatements } from "./server/services/transparency-database";
import { endSearchRestrictions } from "./server/services/measures";

export { ConversationRoom } from "./server/chat/conversation-room";
export { MemberChannel } from "./server/notices/member-channel";

/** The cron of the daily clock work (wrangler.toml). */
const DAILY = "17 3 * * *";
/** The hourly cron of the clock's mails (unread-message reminders, weekly updates, activation reminders). */
const HOURLY = "41 * * * *";
/**
 * Every five minutes: orders whose payment the provider made but never answered for (services/payments.ts),
 * and statements of reasons due for the DSA Transparency Database (services/transparency-database.ts).
 */
const PAYMENTS = "*/5 * * * *";

export default {
  fetch: app.fetch,
  /** Mail to the Worker through Email Routing: List-Unsubscribe mailto: and bounce reports (src/server/mail/inbound.ts). */
  async email(message, env) {
    const outcome = await receiveMail(message, env, Math.floor(Date.now() / 1000));
    if (outcome === "dropped") console.info(JSON.stringify({ event: "mail_received_dropped", to: message.to }));
  },
  /**
   * Daily: erase the accounts whose 14-day deletion window has passed, chat photos never sent,
   * past swipe-game days, and what is past its retention (copies of sent mail, SMS and pushes,
   * ended sessions, used links, reports handled two years ago: services/retention.ts).
   * Every five minutes: unanswered orders settled, search restrictions that reached their end lifted.
   * Hourly: the clock's mails that are due (src/server/notices/mail-notices.ts), and refund requests
   * the provider has not answered settled with it (src/server/services/refunds.ts).
   */
  async scheduled(controller, env, ctx) {
    if (controller.cron === PAYMENTS) {
      ctx.waitUntil(settleUnanswered(env, Math.floor(Date.now() / 1000)));
      ctx.waitUntil(
        submitStatements(env, Math.floor(Date.now() / 1000)).then((run) =>
          console.info(JSON.stringify({ event: "transparency_statements", ...run })),
        ),
      );
      // Search restrictions whose time has come end here (chat restrictions and suspensions compare with now).
      ctx.waitUntil(endSearchRestrictions(env, databaseOf(env.DB), Math.floor(Date.now() / 1000)));
      return;
    }
    if (controller.cron === HOURLY) {
      ctx.waitUntil(
        runMailClock(env, Math.floor(Date.now() / 1000)).then((sent) =>
          console.info(JSON.stringify({ event: "mail_clock", ...sent })),
        ),
      );
      ctx.waitUntil(
        runRefundClock(env, Math.floor(Date.now() / 1000)).then((settled) =>
          console.info(JSON.stringify({ event: "refund_clock", ...settled })),
        ),
      );
      return;
    }
    if (controller.cron !== DAILY) return;
    ctx.waitUntil(
      purgeDeletedAccounts(databaseOf(env.DB), env.PHOTOS, chatErasureIn(env)).then((erased) => {
        console.info(JSON.stringify({ event: "purge_deleted_accounts", erased }));
      }),
    );
    ctx.waitUntil(
      purgeUnsentChatPhotos(env.DB, env.PHOTOS).then((removed) => {
        console.info(JSON.stringify({ event: "purge_unsent_chat_photos", removed }));
      }),
    );
    const now = Math.floor(Date.now() / 1000);
    ctx.waitUntil(forgetPastSwipes(databaseOf(env.DB), new Date()));
    ctx.waitUntil(
      runRetention(databaseOf(env.DB), now, { outboxDays: outboxRetentionDays(env), photos: env.PHOTOS }).then(
        (result) => {
          console.info(JSON.stringify({ event: "retention", ...result.deleted, more: result.more }));
        },
      ),
    );
  },
} satisfies ExportedHandler<Env>;
