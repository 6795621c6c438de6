import type { Plugin } from "vite";

/**
 * The bytes of one piece of a page, as TextEncoder gives them: ASCII pieces (nearly all of them: tag
 * names, attributes, class names) are copied in JavaScript, anything else and long text goes to
 * TextEncoder. React's streaming renderer encodes every piece of markup on its own; in workerd each
 * TextEncoder call crosses into the runtime, and a search page has thousands of pieces (decision 0042).
 * Written without TypeScript syntax: its source is put into React's renderer as it is.
 */
export function encodeChunk(encoder: TextEncoder, text: string): Uint8Array {
  const length = text.length;
  if (length > 256) return encoder.encode(text);
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code > 127) return encoder.encode(text);
    bytes[i] = code;
  }
  return bytes;
}

const RENDERER = /react-dom-server\.edge\.production\.js$/;
const STRING_TO_CHUNK = `function stringToChunk(content) {
  return textEncoder.encode(content);
}`;

/**
 * The size of the views React's streaming renderer copies markup into before it hands them to the
 * response: 64 KB instead of React's 4 KB, so a search page (about 45 KB) leaves the renderer as one
 * piece rather than a dozen. Each piece is a step of its own through the runtime's pipes to the socket
 * and a fresh buffer. A view is handed on when it is full or when a flush ends, so what one flush
 * renders goes out at once as before; a Suspense boundary's later flush still goes out on its own
 * (decision 0045).
 */
export const VIEW_SIZE = 64 * 1024;
const REACT_VIEW_SIZE = 4096;
const VIEW_SITES = [`${REACT_VIEW_SIZE} < chunk.byteLength`, `new Uint8Array(${REACT_VIEW_SIZE})`];

/**
 * React's streaming renderer for the Worker (react-dom/server.edge) with `encodeChunk` in its
 * stringToChunk and views of VIEW_SIZE. Same bytes, less time per page (measured by `npm run bench`).
 * A React whose renderer no longer has that function or those views stops the build, so whoever
 * updates React looks at this again.
 */
export function reactChunkEncoding(): Plugin {
  return {
    name: "react-chunk-encoding",
    enforce: "pre",
    transform: {
      filter: { id: RENDERER },
      handler(code, id) {
        if (!RENDERER.test(id)) return undefined;
        if (!code.includes(STRING_TO_CHUNK)) throw new Error(`${id}: stringToChunk is not as scripts/vite/react-chunks.ts expects; check it against this React`);
        for (const site of VIEW_SITES) if (!code.includes(site)) throw new Error(`${id}: the renderer's views are not as scripts/vite/react-chunks.ts expects (${site}); check it against this React`);
        // On the lines the function had, so the renderer's source map stays true below it.
        const inline = encodeChunk.toString().replace(/\s*\n\s*/g, " ");
        const encoded = code.replace(STRING_TO_CHUNK, `var encodeChunk = ${inline}; function stringToChunk(content) {\n  return encodeChunk(textEncoder, content);\n}`);
        return { code: VIEW_SITES.reduce((text, site) => text.replaceAll(site, site.replace(String(REACT_VIEW_SIZE), String(VIEW_SIZE))), encoded), map: null };
      },
    },
  };
}
