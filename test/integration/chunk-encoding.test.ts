import { describe, expect, it } from "vitest";
import { encodeChunk } from "../../scripts/vite/react-chunks";

const encoder = new TextEncoder();

/** The Worker's build puts encodeChunk into React's renderer; test/e2e/build.test.ts checks the built Worker. */
describe("the page renderer's encoding of markup pieces (decision 0042)", () => {
  it("gives TextEncoder's bytes for ASCII, accents, emoji, lone surrogates, empty and long text", () => {
    const samples = ["", "<", 'class="profile-card"', "Zoë, 31", "Łódź", "😀 hi", "\ud800", "a\udc00b", "x".repeat(256), "y".repeat(257), `${"z".repeat(300)}é`, "\u007f\u0080"];
    for (const text of samples) expect([...encodeChunk(encoder, text)], JSON.stringify(text)).toEqual([...encoder.encode(text)]);
  });
});
