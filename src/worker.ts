import { app } from "./server/app";

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
