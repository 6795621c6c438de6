/** Bytes a phone downloads for a page, and the size of the Worker bundle, from the build output. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

type Chunk = { file: string; imports?: string[]; css?: string[] };

const gz = (path: string) => gzipSync(readFileSync(path), { level: 9 }).length;

/** The JavaScript a page loads before it is interactive: the entry, the screen's chunk and their imports. */
export function pageJavaScript(
  clientDir: string,
  screenSource: string,
): { files: string[]; raw: number; gzip: number } {
  const manifest = JSON.parse(readFileSync(join(clientDir, ".vite/manifest.json"), "utf8")) as Record<string, Chunk>;
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    chunk.imports?.forEach(visit);
  };
  visit("src/client/entry.tsx");
  visit(screenSource);
  const paths = [...files].map((f) => join(clientDir, f));
  return {
    files: [...files],
    raw: paths.reduce((n, p) => n + statSync(p).size, 0),
    gzip: paths.reduce((n, p) => n + gz(p), 0),
  };
}

/** The Worker's code as uploaded: every .js module of the build. */
export function workerBundle(workerDir: string): { raw: number; gzip: number } {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".js")) files.push(path);
    }
  };
  walk(workerDir);
  return { raw: files.reduce((n, p) => n + statSync(p).size, 0), gzip: files.reduce((n, p) => n + gz(p), 0) };
}
