import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { ReactNode } from "react";
import { describe, expect, it } from "vitest";
import { reactChunkEncoding, WRITING } from "../../scripts/vite/react-chunks";

/**
 * The Worker's streaming renderer as the build makes it: React's production renderer put through
 * reactChunkEncoding (scripts/vite/react-chunks.ts), loaded here in Node beside React's own string
 * renderer. The built Worker itself is checked below; its pages are rendered by every browser test.
 */
const require = createRequire(import.meta.url);
/** React's own files (its package exports none of them by name). */
const react = (file: string) => join(process.cwd(), "node_modules", file);
const id = react("react-dom/cjs/react-dom-server.edge.production.js");
const plugin = reactChunkEncoding();
const transform = plugin.transform as { handler: (code: string, id: string) => { code: string } | undefined };
const patched = transform
  .handler(readFileSync(id, "utf8"), id)!
  .code.replace('require("react")', `require(${JSON.stringify(react("react/cjs/react.production.js"))})`)
  .replace('require("react-dom")', `require(${JSON.stringify(react("react-dom/cjs/react-dom.production.js"))})`);
const dir = join(process.cwd(), "node_modules/.cache/renderer-writing");
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, "react-dom-server.edge.js"), patched);
const renderer = require(join(dir, "react-dom-server.edge.js")) as {
  renderToReadableStream: (node: ReactNode) => Promise<ReadableStream<Uint8Array>>;
};
const strings = require(react("react-dom/cjs/react-dom-server-legacy.node.production.js")) as {
  renderToString: (node: ReactNode) => string;
};
// The same React as the renderer's (hooks belong to one copy of React).
const { createElement: h, Suspense, use } = require(react("react/cjs/react.production.js")) as typeof import("react");

/** Every piece the stream hands on, as bytes. */
async function pieces(stream: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(value);
  }
}

const joined = (parts: Uint8Array[]) => Buffer.concat(parts);

const TEXTS = ["Zoë, 31", "Łódź", "Fryslân", "😀 hi", 'a < b & c > "d"', "\u2028", "plain text", "Ærøskøbing"];

/** About 100 KB of markup: list items with accents, emoji, escapes and attributes. */
const big = () =>
  h(
    "ul",
    { className: "list" },
    Array.from({ length: 1500 }, (_, i) =>
      h("li", { key: i, "data-i": i, title: TEXTS[i % TEXTS.length] }, TEXTS[(i + 3) % TEXTS.length], " ", i),
    ),
  );

describe("the page renderer's writing (scripts/vite/react-chunks.ts, decision 0045)", () => {
  it("streams exactly the bytes React's string renderer gives, accents, emoji and escapes included", async () => {
    const streamed = joined(await pieces(await renderer.renderToReadableStream(big())));
    expect(streamed.byteLength).toBeGreaterThan(100_000);
    expect(streamed.equals(Buffer.from(strings.renderToString(big()), "utf8"))).toBe(true);
  });

  it("hands on what one flush wrote as one piece, and a later Suspense boundary as a piece of its own", async () => {
    // Without a boundary: the whole 100 KB in one piece (React's own writer hands on 28 views of 4 KB or less).
    expect(await pieces(await renderer.renderToReadableStream(big()))).toHaveLength(1);

    let resolve!: (text: string) => void;
    const later = new Promise<string>((r) => (resolve = r));
    const Late = () => h("p", null, use(later));
    const stream = await renderer.renderToReadableStream(
      h("div", null, h("h1", null, "Shell"), h(Suspense, { fallback: h("span", null, "…") }, h(Late))),
    );
    const reader = stream.getReader();
    // The shell arrives before the boundary's data exists.
    const shell = new TextDecoder().decode((await reader.read()).value);
    expect(shell).toContain("<h1>Shell</h1>");
    expect(shell).not.toContain("Arrived");
    resolve("Arrived: Zoë");
    const rest: string[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest.push(new TextDecoder().decode(value));
    }
    expect(rest.join("")).toContain("Arrived: Zoë");
  });

  it("stops the build for a renderer that is not as it expects", () => {
    expect(() => transform.handler("function writeChunk(destination, chunk) {}", id)).toThrow(
      /not as scripts\/vite\/react-chunks\.ts expects/,
    );
  });

  it("is the renderer in the built Worker", () => {
    const worker = readFileSync("dist/edge_dating/index.js", "utf8");
    expect(WRITING).toContain("pendingText += chunk;");
    expect(worker).toMatch(/function writeChunk\(destination, chunk\) \{\s*pendingText \+= chunk;\s*\}/);
    expect(worker).toMatch(/destination\.enqueue\(textEncoder\.encode\(pendingText\)\)/);
    expect(worker).not.toContain("new Uint8Array(4096)");
  });
});
