import { describe, expect, it } from "vitest";
import { decodeJpeg, decodePng, decodeWebp, encodeJpeg, resample } from "../../src/server/services/codecs";
import { jpeg, picture, png, webp } from "../images";

const buffer = (bytes: Uint8Array) => bytes.slice().buffer;

/** The WebAssembly codecs load from static `.wasm` imports and run inside workerd. */
describe("image codecs in workerd", () => {
  it("encodes and decodes JPEG", async () => {
    const file = await encodeJpeg(picture(64, 48), 80);
    expect([...file.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const image = await decodeJpeg(buffer(file));
    expect([image.width, image.height, image.data.length]).toEqual([64, 48, 64 * 48 * 4]);
  });

  it("decodes PNG and WebP", async () => {
    const fromPng = await decodePng(buffer(await png(picture(30, 20))));
    expect([fromPng.width, fromPng.height]).toEqual([30, 20]);
    expect(fromPng.data[0]).toBe(20); // a dark square, exactly (PNG is lossless)
    const fromWebp = await decodeWebp(buffer(await webp(picture(30, 20))));
    expect([fromWebp.width, fromWebp.height]).toEqual([30, 20]);
  });

  it("resamples", async () => {
    const image = await decodeJpeg(buffer(await jpeg(picture(64, 48))));
    const larger = await resample(image, 128, 96, "triangle");
    expect([larger.width, larger.height, larger.data.length]).toEqual([128, 96, 128 * 96 * 4]);
  });
});
