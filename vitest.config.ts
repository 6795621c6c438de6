import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// Offline: wrangler and Miniflare must not try to download request.cf data or send metrics.
process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
process.env.WRANGLER_SEND_METRICS = "false";
import { DEVELOPMENT_VAPID } from "./scripts/demo/vapid-keys";
import { clientManifest } from "./scripts/vite/client-manifest";
import LongestFirst from "./test/sequencer";

/** Tests inside workerd: the Worker with real local D1, KV and R2; migrations applied in setup. */
export default defineConfig(async () => {
  const migrations = await readD1Migrations("migrations");
  return {
    plugins: [
      clientManifest(),
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            SESSION_SECRET: "a session secret used only by the tests, 48 chars",
            MAIL_WEBHOOK_SECRET: "whsec_dGVzdCB3ZWJob29rIHNlY3JldCBvZiB0aGUgbWFpbCBwcm92aWRlcg==",
            // The Sinch stand-in's callback secret (test/sinch-stand-in.ts).
            SMS_WEBHOOK_SECRET: "sinch-stand-in-callback-secret",
            // The Mollie stand-in's next-gen webhook secret (test/mollie-stand-in.ts).
            MOLLIE_WEBHOOK_SECRET: "mollie-stand-in-next-gen-webhook-secret",
            VAPID_PRIVATE_KEY: DEVELOPMENT_VAPID.privateKey,
            // The console's host (test/integration/console.test.ts); Access itself is a loopback stand-in.
            OPERATOR_HOST: "ops.flirtwave.test",
          },
          // A second database that plays a read replica lagging behind DB (test/lagging-replica.ts).
          d1Databases: { REPLICA: "00000000-0000-4000-8000-0000000000a1" },
        },
      }),
    ],
    test: {
      include: ["test/integration/**/*.test.{ts,tsx}", "src/**/*.test.{ts,tsx}"],
      setupFiles: ["test/apply-migrations.ts"],
      globalSetup: ["test/global-setup.ts"],
      // Three workerd processes on two cores: each waits on its runtime and storage often enough that a
      // third keeps both cores busy (about 4 min 10 s against 5 min for the suite, measured here).
      // `npm test` runs the browser tests beside this suite and asks for two (scripts/test-all.ts).
      maxWorkers: Number(process.env.TEST_WORKERS ?? 3),
      sequence: { sequencer: LongestFirst },
      reporters: ["default", "./test/summary-reporter.ts"],
    },
  };
});
