/**
 * The WebAssembly image codecs (jSquash, repackaged from Squoosh), loaded the way Workers load
 * WebAssembly: each `.wasm` file is a static import that the bundler turns into a compiled
 * WebAssembly.Module (workerd may not compile wasm from bytes at run time), handed to the codec's
 * init function. Nothing is fetched.
 *
 * Decoders are instantiated afresh for every image: an Emscripten heap only grows, so an instance
 * kept between uploads would hold the memory of the largest image it ever decoded; a new instance
 * lets the old heap be collected. The encoder and the resizer only ever see small images.
 */
import decodeJpegWith, { init as initJpegDecode } from "@jsquash/jpeg/decode";
import encodeJpegWith, { init as initJpegEncode } from "@jsquash/jpeg/encode";
import jpegDecWasm from "@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm";
import jpegEncWasm from "@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm";
import decodePngWith, { init as initPng } from "@jsquash/png/decode";
import pngWasm from "@jsquash/png/codec/pkg/squoosh_png_bg.wasm?module";
import resizeWith, { initResize } from "@jsquash/resize";
import resizeWasm from "@jsquash/resize/lib/resize/pkg/squoosh_resize_bg.wasm?module";
import decodeWebpWith, { init as initWebpDecode } from "@jsquash/webp/decode";
import webpDecWasm from "@jsquash/webp/codec/dec/webp_dec.wasm";

/** An RGBA image as the codecs pass it around (the shape of the DOM's ImageData). */
export type Pixels = { data: Uint8ClampedArray; width: number; height: number };

/**
 * The codecs build their results with `new ImageData(...)`, which workerd does not have: a plain
 * stand-in with the same three fields.
 */
function ensureImageData(): void {
  if (typeof (globalThis as { ImageData?: unknown }).ImageData === "undefined") {
    (globalThis as { ImageData?: unknown }).ImageData = class ImageData {
      constructor(
        readonly data: Uint8ClampedArray,
        readonly width: number,
        readonly height: number,
      ) {}
    };
  }
}

// The jSquash typings name only the options argument of the Emscripten init functions; at run time
// they take the compiled module first (see their utils.js).
type EmscriptenInit = (
  module: WebAssembly.Module,
  options?: { print?: (text: string) => void; printErr?: (text: string) => void },
) => Promise<unknown>;
/** libjpeg's and libwebp's own messages ("Premature end of JPEG file"): a broken upload is answered with an error, not logged. */
const QUIET = { print: () => {}, printErr: () => {} };

export async function decodeJpeg(bytes: ArrayBuffer): Promise<Pixels> {
  ensureImageData();
  await (initJpegDecode as unknown as EmscriptenInit)(jpegDecWasm, QUIET);
  // preserveOrientation: turn the pixels as the EXIF orientation says, since the EXIF is dropped.
  return decodeJpegWith(bytes, { preserveOrientation: true });
}

export async function decodeWebp(bytes: ArrayBuffer): Promise<Pixels> {
  ensureImageData();
  await (initWebpDecode as unknown as EmscriptenInit)(webpDecWasm, QUIET);
  return decodeWebpWith(bytes);
}

let pngReady: Promise<unknown> | undefined;
export async function decodePng(bytes: ArrayBuffer): Promise<Pixels> {
  ensureImageData();
  pngReady ??= initPng(pngWasm);
  await pngReady;
  return decodePngWith(bytes);
}

let jpegEncoderReady: Promise<unknown> | undefined;
/**
 * A JPEG (mozjpeg) with no metadata at all: no EXIF, no ICC profile, no comment. Sequential, not
 * progressive: progressive scans cost about twice the CPU time for some 4 % smaller files.
 */
export async function encodeJpeg(image: Pixels, quality: number): Promise<Uint8Array<ArrayBuffer>> {
  ensureImageData();
  jpegEncoderReady ??= (initJpegEncode as unknown as EmscriptenInit)(jpegEncWasm, QUIET);
  await jpegEncoderReady;
  return new Uint8Array(await encodeJpegWith(image as ImageData, { quality, progressive: false }));
}

let resizeReady: Promise<unknown> | undefined;
/** Resample with one of the resizer's filters (triangle is bilinear: smooth when enlarging). */
export async function resample(
  image: Pixels,
  width: number,
  height: number,
  method: "triangle" | "lanczos3",
): Promise<Pixels> {
  ensureImageData();
  resizeReady ??= initResize(resizeWasm);
  await resizeReady;
  return resizeWith(image as ImageData, {
    width,
    height,
    method,
    fitMethod: "stretch",
    premultiply: false,
    linearRGB: false,
  });
}
