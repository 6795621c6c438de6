import type { TestProject } from "vitest/node";
import { createMollieStandIn } from "./mollie-stand-in";
import { createPushStandIn } from "./push-stand-in";
import { createSmsStandIn } from "./sms-stand-in";

/** Services the workerd tests reach on loopback: stand-ins of Mollie's API, the SMS provider and a push service. */
export default async function setup(project: TestProject) {
  const mollie = createMollieStandIn();
  const sms = createSmsStandIn();
  const push = createPushStandIn();
  project.provide("mollieUrl", `${await mollie.start()}/v2`);
  project.provide("smsUrl", await sms.start());
  project.provide("pushUrl", await push.start());
  return async () => {
    await mollie.stop();
    await sms.stop();
    await push.stop();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    mollieUrl: string;
    smsUrl: string;
    pushUrl: string;
  }
}
