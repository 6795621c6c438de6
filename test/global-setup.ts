import type { TestProject } from "vitest/node";
import { createMollieStandIn } from "./mollie-stand-in";
import { createSmsStandIn } from "./sms-stand-in";

/** Services the workerd tests reach on loopback: stand-ins of Mollie's API and of the SMS provider. */
export default async function setup(project: TestProject) {
  const mollie = createMollieStandIn();
  const sms = createSmsStandIn();
  project.provide("mollieUrl", `${await mollie.start()}/v2`);
  project.provide("smsUrl", await sms.start());
  return async () => {
    await mollie.stop();
    await sms.stop();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    mollieUrl: string;
    smsUrl: string;
  }
}
