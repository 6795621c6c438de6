import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Plugin } from "vite";

export const CLIENT_OUT_DIR = "dist/client";
const MANIFEST = "virtual:client-manifest";

/**
 * The Worker needs the client build's manifest to name hashed scripts and styles. The client is
 * built first; this module then gives the Worker that manifest (null on the dev server and in tests,
 * where the entry is served from source).
 */
export function clientManifest(): Plugin {
  let building = false;
  return {
    name: "client-manifest",
    configResolved(config) {
      building = config.command === "build";
    },
    resolveId(id) {
      return id === MANIFEST ? `\0${MANIFEST}` : undefined;
    },
    load(id) {
      if (id !== `\0${MANIFEST}`) return undefined;
      if (!building || this.environment.name === "client") return "export default null;";
      const manifest = readFileSync(resolve(CLIENT_OUT_DIR, ".vite/manifest.json"), "utf8");
      return `export default ${manifest};`;
    },
  };
}
