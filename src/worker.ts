import { app } from "./server/app";
import { purgeDeletedAccounts } from "./server/services/accounts";

export { ConversationRoom } from "./server/chat/conversation-room";

export default {
  fetch: app.fetch,
  /** Daily clock work: erase the accounts whose 14-day deletion window has passed. */
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(
      purgeDeletedAccounts(env.DB, env.PHOTOS).then((erased) => {
        console.info(JSON.stringify({ event: "purge_deleted_accounts", erased }));
      }),
    );
  },
} satisfies ExportedHandler<Env>;
