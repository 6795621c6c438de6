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
 * React's streaming renderer for the Worker (react-dom/server.edge) with `encodeChunk` in its
 * stringToChunk. Same bytes, less time per page (measured by `npm run bench`). A React whose renderer
 * no longer has that function stops the build, so whoever updates React looks at this again.
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
        // On the lines the function had, so the renderer's source map stays true below it.
        const inline = encodeChunk.toString().replace(/\s*\n\s*/g, " ");
        return { code: code.replace(STRING_TO_CHUNK, `var encodeChunk = ${inline}; function stringToChunk(content) {\n  return encodeChunk(textEncoder, content);\n}`), map: null };
      },
    },
  };
}
