/**
 * Real images made inside the test, with the same WebAssembly codecs the Worker uses (encoders the
 * Worker does not need are loaded here only).
 */
import encodePngWith, { init as initPngEncode } from "@jsquash/png/encode";
import pngWasm from "@jsquash/png/codec/pkg/squoosh_png_bg.wasm?module";
import encodeWebpWith, { init as initWebpEncode } from "@jsquash/webp/encode";
import webpSimdWasm from "@jsquash/webp/codec/enc/webp_enc_simd.wasm";
import { encodeJpeg, type Pixels } from "../src/server/services/codecs";

/** An RGBA test picture: a colour gradient under a checkerboard of `square` px, opaque unless `alpha` says. */
export function picture(
  width: number,
  height: number,
  { square = 8, alpha = 255 }: { square?: number; alpha?: number } = {},
): Pixels {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const dark = (Math.floor(x / square) + Math.floor(y / square)) % 2 === 0;
      data[i] = dark ? 20 : (x * 255) / width;
      data[i + 1] = dark ? 20 : (y * 255) / height;
      data[i + 2] = dark ? 20 : 230;
      data[i + 3] = alpha;
    }
  }
  return { data, width, height };
}

export async function jpeg(image: Pixels, quality = 85): Promise<Uint8Array<ArrayBuffer>> {
  return encodeJpeg(image, quality);
}

let pngReady: Promise<unknown> | undefined;
export async function png(image: Pixels): Promise<Uint8Array<ArrayBuffer>> {
  pngReady ??= initPngEncode(pngWasm);
  await pngReady;
  return new Uint8Array(await encodePngWith(image as ImageData));
}

let webpReady: Promise<unknown> | undefined;
export async function webp(image: Pixels): Promise<Uint8Array<ArrayBuffer>> {
  // The encoder picks its SIMD build when the runtime has SIMD (workerd does) and takes the module given.
  webpReady ??= (initWebpEncode as unknown as (module: WebAssembly.Module) => Promise<unknown>)(webpSimdWasm);
  await webpReady;
  return new Uint8Array(await encodeWebpWith(image as ImageData, { quality: 80 }));
}

const text = (s: string) => [...new TextEncoder().encode(s)];
const u16 = (n: number) => [(n >> 8) & 0xff, n & 0xff];
const u32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];

/**
 * A JPEG with an APP1 Exif segment right after its start: a big-endian TIFF with an orientation
 * and an ImageDescription carrying a GPS position, as a phone's camera would leave in the file.
 */
export function withExif(
  file: Uint8Array,
  { orientation = 1, note = "GPS 52.3676N 4.9041E" } = {},
): Uint8Array<ArrayBuffer> {
  const description = [...text(note), 0];
  const entries = 2;
  const ifdSize = 2 + entries * 12 + 4;
  const descriptionOffset = 8 + ifdSize;
  const tiff = [
    ...text("MM"),
    0,
    42,
    ...u32(8),
    ...u16(entries),
    // Orientation (0x0112), SHORT, 1 value, inline.
    ...u16(0x0112),
    ...u16(3),
    ...u32(1),
    ...u16(orientation),
    0,
    0,
    // ImageDescription (0x010e), ASCII, its bytes after the IFD.
    ...u16(0x010e),
    ...u16(2),
    ...u32(description.length),
    ...u32(descriptionOffset),
    ...u32(0),
    ...description,
  ];
  const payload = [...text("Exif"), 0, 0, ...tiff];
  const segment = [0xff, 0xe1, ...u16(payload.length + 2), ...payload];
  const out = new Uint8Array(file.length + segment.length);
  out.set(file.subarray(0, 2));
  out.set(segment, 2);
  out.set(file.subarray(2), 2 + segment.length);
  return out;
}

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** The same PNG with its header claiming another size (the IHDR's checksum made right again): a "pixel flood". */
export function withPngSize(file: Uint8Array, width: number, height: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(file);
  const view = new DataView(out.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  view.setUint32(29, crc32(out.subarray(12, 29)));
  return out;
}

/** Whether `needle` (ASCII) occurs anywhere in the bytes. */
export function contains(bytes: Uint8Array, needle: string): boolean {
  const n = new TextEncoder().encode(needle);
  outer: for (let i = 0; i + n.length <= bytes.length; i++) {
    for (let j = 0; j < n.length; j++) if (bytes[i + j] !== n[j]) continue outer;
    return true;
  }
  return false;
}

/** The markers of a JPEG's segments up to its first scan (APPn = 0xe0..0xef, COM = 0xfe, SOS = 0xda ...). */
export function jpegMarkers(bytes: Uint8Array): number[] {
  const markers: number[] = [];
  let i = 2;
  while (i + 4 <= bytes.length && bytes[i] === 0xff) {
    const marker = bytes[i + 1]!;
    markers.push(marker);
    if (marker === 0xda) break;
    i += 2 + ((bytes[i + 2]! << 8) | bytes[i + 3]!);
  }
  return markers;
}
