import type { TestProject } from "vitest/node";
import { createMollieStandIn } from "./mollie-stand-in";

/** Services the workerd tests reach on loopback: the stand-in of Mollie's API. */
export default async function setup(project: TestProject) {
  const mollie = createMollieStandIn();
  project.provide("mollieUrl", `${await mollie.start()}/v2`);
  return () => mollie.stop();
}

declare module "vitest" {
  export interface ProvidedContext {
    mollieUrl: string;
  }
}
