import type { TestProject } from "vitest/node";
import { build, seed, serve } from "./server";

/** 8788 unless E2E_PORT says otherwise (two checkouts on one machine each take their own). */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8788);
const STATE = ".tmp/e2e-state";

/** Build the app, load fresh demo data and serve it in workerd for the browser tests. */
export default async function setup(project: TestProject) {
  build();
  seed(STATE, 600);
  const server = await serve(STATE, E2E_PORT);
  project.provide("baseUrl", `http://nl.localhost:${E2E_PORT}`);
  project.provide("statePath", STATE);
  return () => server.stop();
}

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    /** The served state's directory, for localD1. */
    statePath: string;
  }
}
