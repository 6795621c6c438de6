import { app } from "./server/app";
import { databaseOf } from "./server/db/database";
import { purgeDeletedAccounts } from "./server/services/accounts";
import { purgeUnsentChatPhotos } from "./server/services/chat-photos";
import { forgetPastSwipes } from "./server/services/likes";

export { ConversationRoom } from "./server/chat/conversation-room";

export default {
  fetch: app.fetch,
  /** Daily clock work: erase the accounts whose 14-day deletion window has passed, chat photos never sent, past swipe-game days. */
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
    ctx.waitUntil(forgetPastSwipes(databaseOf(env.DB), new Date()));
  },
} satisfies ExportedHandler<Env>;
