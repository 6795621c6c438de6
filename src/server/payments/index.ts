import type { Database } from "../db/database";
import { MollieProvider } from "./mollie";
import type { PaymentProvider } from "./provider";
import { SandboxProvider } from "./sandbox";

/** The provider PAYMENT_PROVIDER names: "mollie", or the offline sandbox (development only). */
export function paymentProviderFor(env: Env, db: Database, origin: string): PaymentProvider {
  if (env.PAYMENT_PROVIDER === "mollie") return new MollieProvider(env.MOLLIE_API_KEY, env.MOLLIE_API_URL);
  if (env.ENVIRONMENT !== "development") throw new Error("the sandbox payment provider runs only in development");
  return new SandboxProvider(db, origin);
}
