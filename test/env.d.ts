import type { D1Migration } from "cloudflare:test";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      /** A database that plays a lagging read replica of DB (test/lagging-replica.ts). */
      REPLICA: D1Database;
    }
  }
}
