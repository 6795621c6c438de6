import { cloudflare } from "@cloudflare/vite-plugin";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { writeBuildStamp } from "./scripts/vite/build-stamp.ts";
import { CLIENT_OUT_DIR, clientManifest } from "./scripts/vite/client-manifest.ts";
import { reactChunkEncoding } from "./scripts/vite/react-chunks.ts";
import { buildServiceWorker } from "./scripts/vite/service-worker.ts";

export default defineConfig({
  plugins: [clientManifest(), reactChunkEncoding(), cloudflare({ persistState: { path: ".wrangler/state" } }), react()],
  environments: {
    client: {
      build: {
        outDir: CLIENT_OUT_DIR,
        manifest: true,
        rollupOptions: { input: "src/client/entry.tsx" },
      },
    },
  },
  builder: {
    async buildApp(builder) {
      await builder.build(builder.environments.client!);
      await buildServiceWorker();
      await builder.build(builder.environments.edge_dating!);
      // What this build is for (CLOUDFLARE_ENV), which npm run deploy checks before it uploads.
      writeBuildStamp();
    },
  },
});
