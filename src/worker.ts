import { app } from "./server/app";
import { databaseOf } from "./server/db/database";
import { purgeDeletedAccounts } from "./server/services/accounts";
import { purgeUnsentChatPhotos } from "./server/services/chat-photos";
import { chatErasureIn, moveChatMessages } from "./server/services/chats";

export { ConversationRoom } from "./server/chat/conversation-room";

/** The cron of the daily clock work (wrangler.toml); the other one moves chat messages. */
const DAILY = "17 3 * * *";
/** Conversations whose messages one run of the clock work moves from D1 into their objects. */
const CHAT_MOVE_PER_RUN = 500;

export default {
  fetch: app.fetch,
  /**
   * Daily: erase the accounts whose 14-day deletion window has passed, and chat photos never sent.
   * Every five minutes: move messages still in D1 into their conversations' objects (one D1 read
   * when nothing is left).
   */
  async scheduled(controller, env, ctx) {
    if (controller.cron !== DAILY) {
      ctx.waitUntil(
        moveChatMessages(env, CHAT_MOVE_PER_RUN).then((moved) => {
          if (moved.conversations > 0) console.info(JSON.stringify({ event: "chat_move", ...moved }));
        }),
      );
      return;
    }
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
  },
} satisfies ExportedHandler<Env>;
