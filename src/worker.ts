import { REPORT_RETENTION_DAYS } from "./shared/reports";
import { app } from "./server/app";
import { databaseOf } from "./server/db/database";
import { eraseHandledReports } from "./server/db/reports";
import { purgeDeletedAccounts } from "./server/services/accounts";
import { purgeUnsentChatPhotos } from "./server/services/chat-photos";

export { ConversationRoom } from "./server/chat/conversation-room";

export default {
  fetch: app.fetch,
  /**
   * Daily clock work: erase the accounts whose 14-day deletion window has passed, chat photos never
   * sent, and reports handled longer ago than they are kept.
   */
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(
      purgeDeletedAccounts(databaseOf(env.DB), env.PHOTOS).then((erased) => {
        console.info(JSON.stringify({ event: "purge_deleted_accounts", erased }));
      }),
    );
    ctx.waitUntil(
      purgeUnsentChatPhotos(env.DB, env.PHOTOS).then((removed) => {
        console.info(JSON.stringify({ event: "purge_unsent_chat_photos", removed }));
      }),
    );
    const now = Math.floor(Date.now() / 1000);
    ctx.waitUntil(
      eraseHandledReports(databaseOf(env.DB), now - REPORT_RETENTION_DAYS * 24 * 60 * 60).then((erased) => {
        console.info(JSON.stringify({ event: "erase_handled_reports", erased }));
      }),
    );
  },
} satisfies ExportedHandler<Env>;
