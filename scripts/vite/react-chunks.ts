import type { Plugin } from "vite";

/**
 * How React's streaming renderer (react-dom/server.edge) writes a page, as this build changes it
 * (decision 0045). React keeps every piece of markup (a tag, an attribute, a text) as bytes: it encodes
 * each one with TextEncoder when it makes it and copies it into 4 KB views that it hands to the
 * response one by one. In workerd each TextEncoder call crosses into the runtime, and a search page has
 * thousands of pieces. Here the pieces stay text, each flush joins what it wrote and encodes it once,
 * and hands that on as one piece: the bytes are the same, the shell still goes out the moment it is
 * ready and each later Suspense boundary with its own flush, as before. React's renderToString keeps
 * its pieces as text in the same way.
 */
export const WRITING = `var pendingText = "";
function writeChunk(destination, chunk) {
  pendingText += chunk;
}
function writeChunkAndReturn(destination, chunk) {
  pendingText += chunk;
  return !0;
}
function completeWriting(destination) {
  0 < pendingText.length &&
    (destination.enqueue(textEncoder.encode(pendingText)), (pendingText = ""));
}
var textEncoder = new TextEncoder();
function stringToChunk(content) {
  return content;
}
function stringToPrecomputedChunk(content) {
  return content;
}
function byteLengthOfChunk(chunk) {
  return chunk.length;
}`;

/** The renderer's production build (the Worker's) and its development build (vite dev). */
const RENDERER = /react-dom-server\.edge\.(production|development)\.js$/;

/** What the build replaces, as React 19.3 has it; a React without any of it stops the build. */
const REPLACED: [from: RegExp, to: string][] = [
  // Writing into views, and making pieces into bytes.
  [
    /function writeChunk\(destination, chunk\) \{[^]*?\n\s*function byteLengthOfChunk\(chunk\) \{\s*return chunk\.byteLength;\s*\}/,
    WRITING,
  ],
  // A flush's fresh view: none is needed.
  [/currentView = new Uint8Array\(4096\);/g, "currentView = null;"],
  // A finished segment's size (React's guide for when to send a boundary on its own) counts text.
  [/segmentByteSize \+= segment\[i\]\.byteLength;/, "segmentByteSize += byteLengthOfChunk(segment[i]);"],
];

/**
 * React's streaming renderer for the Worker with pieces kept as text (WRITING). Same bytes, less time
 * per page (measured by `npm run bench`). Whoever updates React and sees the build stop looks at this
 * again against the new renderer.
 */
export function reactChunkEncoding(): Plugin {
  return {
    name: "react-chunk-encoding",
    enforce: "pre",
    transform: {
      filter: { id: RENDERER },
      handler(code, id) {
        if (!RENDERER.test(id)) return undefined;
        let out = code;
        for (const [from, to] of REPLACED) {
          if (!from.test(out))
            throw new Error(
              `${id}: the renderer is not as scripts/vite/react-chunks.ts expects (${from.source}); check it against this React`,
            );
          from.lastIndex = 0;
          // As many lines as what it replaces, so the renderer's source map stays true below it.
          out = out.replace(
            from,
            (found) => to + "\n".repeat(Math.max(0, found.split("\n").length - to.split("\n").length)),
          );
        }
        if (/\.byteLength|Uint8Array/.test(out.slice(out.indexOf(WRITING) + WRITING.length))) {
          throw new Error(
            `${id}: the renderer still measures or makes bytes after scripts/vite/react-chunks.ts; check it against this React`,
          );
        }
        return { code: out, map: null };
      },
    },
  };
}
