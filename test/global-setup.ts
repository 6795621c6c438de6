import type { TestProject } from "vitest/node";
import { createAccessStandIn } from "./access-stand-in";
import { createMollieStandIn } from "./mollie-stand-in";
import { createPlacesServer } from "./places-server";
import { createPushStandIn } from "./push-stand-in";
import { createResendStandIn } from "./resend-stand-in";
import { createSesStandIn } from "./ses-stand-in";
import { createSinchStandIn } from "./sinch-stand-in";
import { createTransparencyDatabaseStandIn } from "./transparency-database-stand-in";

/** Services the workerd tests reach on loopback: stand-ins of Mollie's API, Sinch's SMS API, Resend, SES with its SNS topic, a push service, Cloudflare Access and the DSA Transparency Database; and the places command's statements per country. */
export default async function setup(project: TestProject) {
  const mollie = createMollieStandIn();
  const sinch = createSinchStandIn();
  const push = createPushStandIn();
  const resend = createResendStandIn();
  const ses = createSesStandIn();
  const access = createAccessStandIn();
  const places = createPlacesServer();
  const tdb = createTransparencyDatabaseStandIn();
  project.provide("mollieUrl", `${await mollie.start()}/v2`);
  project.provide("smsUrl", await sinch.start());
  project.provide("pushUrl", await push.start());
  project.provide("resendUrl", await resend.start());
  project.provide("sesUrl", await ses.start());
  project.provide("accessUrl", await access.start());
  project.provide("placesUrl", await places.start());
  project.provide("tdbUrl", `${await tdb.start()}/api/v1`);
  return async () => {
    await mollie.stop();
    await sinch.stop();
    await push.stop();
    await resend.stop();
    await ses.stop();
    await access.stop();
    await places.stop();
    await tdb.stop();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    mollieUrl: string;
    smsUrl: string;
    pushUrl: string;
    resendUrl: string;
    sesUrl: string;
    accessUrl: string;
    placesUrl: string;
    tdbUrl: string;
  }
}
