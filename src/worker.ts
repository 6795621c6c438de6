import { app } from "./server/app";
import { purgeDeletedAccounts } from "./server/services/accounts";
import { purgeUnsentChatPhotos } from "./server/services/chat-photos";
import { chatErasureIn, moveChatMessages } from "./server/services/chats";

export { ConversationRoom } from "./server/chat/conversation-room";

/** Conversations whose messages the daily clock work moves from D1 into their objects per run. */
const CHAT_MOVE_PER_RUN = 2000;

export default {
  fetch: app.fetch,
  /**
   * Daily clock work: erase the accounts whose 14-day deletion window has passed, chat photos never
   * sent, and move messages still in D1 into their conversations' objects.
   */
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(
      purgeDeletedAccounts(env.DB, env.PHOTOS, chatErasureIn(env)).then((erased) => {
        console.info(JSON.stringify({ event: "purge_deleted_accounts", erased }));
      }),
    );
    ctx.waitUntil(
      purgeUnsentChatPhotos(env.DB, env.PHOTOS).then((removed) => {
        console.info(JSON.stringify({ event: "purge_unsent_chat_photos", removed }));
      }),
    );
    ctx.waitUntil(
      moveChatMessages(env, CHAT_MOVE_PER_RUN).then((moved) => {
        console.info(JSON.stringify({ event: "chat_move", ...moved }));
      }),
    );
  },
} satisfies ExportedHandler<Env>;
