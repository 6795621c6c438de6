/**
 * Uploaded photos, checked and remade on the server (SPEC §5, ARCHITECTURE "Photos"):
 *
 * 1. the real type from the magic bytes (JPEG, PNG, WebP; a renamed file is refused),
 * 2. the byte size, and the pixel count from the header, both before anything is decoded (a
 *    "pixel flood" image, small on disk but huge once decoded, never reaches the decoder),
 * 3. decoded, flattened onto white, scaled to at most MAX_EDGE on the long side and encoded again
 *    as JPEG: the new file carries none of the upload's metadata (EXIF with GPS position, camera,
 *    ICC, comments ...),
 * 4. a thumbnail and a blurred version made from it: the blur is done here, on the pixels, so the
 *    blurred file holds nothing recognisable, never the original under a CSS filter.
 */
import { AppError } from "../errors";
import { decodeJpeg, decodePng, decodeWebp, encodeJpeg, type Pixels, resample } from "./codecs";

/** Largest upload accepted, checked before decoding. */
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
/**
 * Most pixels an upload may have, read from its header before decoding. 16 megapixels takes a
 * 12 MP phone photo or a 4096 x 4096 image; decoded it is 64 MB of RGBA, about what fits in a
 * Worker's 128 MB isolate together with the codec's own heap.
 */
const MAX_PHOTO_PIXELS = 16_000_000;
/** Long side of the stored original. */
export const MAX_EDGE = 1600;
/** The thumbnail fits in this box. */
const THUMB_WIDTH = 320;
const THUMB_MAX_HEIGHT = 480;
/** The blurred version: shrunk to this long side (all detail gone), blurred, enlarged to fit this box. */
const BLUR_SOURCE_EDGE = 10;
const BLUR_WIDTH = 480;
const BLUR_MAX_HEIGHT = 720;

const QUALITY = { original: 82, thumb: 78, blur: 60 } as const;

type ImageType = "jpeg" | "png" | "webp";

export type ProcessedPhoto = {
  original: Uint8Array;
  thumb: Uint8Array;
  blur: Uint8Array;
  width: number;
  height: number;
};

const typeError = () => new AppError({ status: 400, code: "invalid_photo", key: "errors.photo_type", field: "photo" });
const unreadable = () =>
  new AppError({ status: 400, code: "invalid_photo", key: "errors.photo_unreadable", field: "photo" });

/** The type the bytes say, whatever the file's name or content type claims; null for anything else. */
function sniffImageType(bytes: Uint8Array): ImageType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return "png";
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WEBP") return "webp";
  return null;
}

function ascii(bytes: Uint8Array, offset: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(offset, offset + length));
}

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
const u32be = (b: Uint8Array, i: number) => ((b[i]! << 24) >>> 0) + ((b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!);

/** Width and height as the file's header states them, without decoding; null when there is no readable header. */
function headerSize(bytes: Uint8Array, type: ImageType): { width: number; height: number } | null {
  if (type === "png") {
    // Signature, then the IHDR chunk first: length, "IHDR", width, height (big-endian).
    if (bytes.length < 24 || ascii(bytes, 12, 4) !== "IHDR") return null;
    return { width: u32be(bytes, 16), height: u32be(bytes, 20) };
  }
  if (type === "webp") {
    if (bytes.length < 30) return null;
    const chunk = ascii(bytes, 12, 4);
    if (chunk === "VP8X") return { width: u24le(bytes, 24) + 1, height: u24le(bytes, 27) + 1 };
    if (chunk === "VP8L") {
      if (bytes[20] !== 0x2f) return null;
      const bits = (bytes[21]! | (bytes[22]! << 8) | (bytes[23]! << 16) | (bytes[24]! << 24)) >>> 0;
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    if (chunk === "VP8 ") {
      // Frame tag (3 bytes), start code 9d 01 2a, then 14-bit width and height.
      if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return null;
      return { width: u16le(bytes, 26) & 0x3fff, height: u16le(bytes, 28) & 0x3fff };
    }
    return null;
  }
  // JPEG: walk the marker segments up to the first start-of-frame.
  let i = 2;
  while (i + 4 <= bytes.length) {
    if (bytes[i] !== 0xff) return null;
    const marker = bytes[i + 1]!;
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or scan data before any frame header
    const length = u16be(bytes, i + 2);
    if (length < 2) return null;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      if (i + 9 > bytes.length) return null;
      return { height: u16be(bytes, i + 5), width: u16be(bytes, i + 7) };
    }
    i += 2 + length;
  }
  return null;
}

/**
 * Check an upload before decoding it: its type by content and its stated size in pixels. Throws
 * the error the member sees.
 */
function checkUpload(bytes: Uint8Array): { type: ImageType; width: number; height: number } {
  if (bytes.length > MAX_PHOTO_BYTES)
    throw new AppError({
      status: 413,
      code: "photo_too_large",
      key: "errors.photo_too_large",
      values: { max: MAX_PHOTO_BYTES / 1024 / 1024 },
      field: "photo",
    });
  const type = sniffImageType(bytes);
  if (!type) throw typeError();
  const size = headerSize(bytes, type);
  if (!size || size.width < 1 || size.height < 1) throw unreadable();
  if (size.width * size.height > MAX_PHOTO_PIXELS) {
    throw new AppError({
      status: 400,
      code: "photo_too_many_pixels",
      key: "errors.photo_too_many_pixels",
      values: { count: Math.floor(MAX_PHOTO_PIXELS / 1_000_000) },
      field: "photo",
    });
  }
  return { type, ...size };
}

/** Size that fits (width, height) inside (maxWidth, maxHeight) keeping the proportions; never larger. */
function fitInside(
  width: number,
  height: number,
  maxWidth: number,
  maxHeight: number,
): { width: number; height: number } {
  const scale = Math.min(1, maxWidth / width, maxHeight / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** Put a possibly transparent image onto white, in place (JPEG has no alpha). */
function flattenOntoWhite(image: Pixels): void {
  const d = image.data;
  for (let i = 0; i < d.length; i += 4) {
    const a = d[i + 3]!;
    if (a === 255) continue;
    const keep = a / 255;
    const white = 255 * (1 - keep);
    d[i] = d[i]! * keep + white;
    d[i + 1] = d[i + 1]! * keep + white;
    d[i + 2] = d[i + 2]! * keep + white;
    d[i + 3] = 255;
  }
}

/**
 * Shrink by area averaging (every source pixel counted by the share of it that each target pixel
 * covers), one target row at a time: no second full-size copy of a large upload is ever made.
 */
function shrinkByArea(image: Pixels, width: number, height: number): Pixels {
  const { data: src, width: sw, height: sh } = image;
  if (width >= sw && height >= sh) return image;
  const sx = sw / width;
  const sy = sh / height;
  // Each source column meets at most two target columns: the first one and its share of it.
  const colTarget = new Int32Array(sw);
  const colShare = new Float32Array(sw);
  for (let x = 0; x < sw; x++) {
    const t = Math.min(width - 1, Math.floor(x / sx));
    const boundary = (t + 1) * sx;
    colTarget[x] = t;
    colShare[x] = x + 1 <= boundary ? 1 : Math.max(0, boundary - x);
  }
  const out = new Uint8ClampedArray(width * height * 4);
  const acc = new Float64Array(width * 4);
  const row = new Float64Array(width * 4);
  const area = sx * sy;
  for (let ty = 0; ty < height; ty++) {
    acc.fill(0);
    const y0 = ty * sy;
    const y1 = (ty + 1) * sy;
    for (let y = Math.floor(y0); y < Math.min(sh, Math.ceil(y1)); y++) {
      const wy = Math.min(y + 1, y1) - Math.max(y, y0);
      if (wy <= 0) continue;
      row.fill(0);
      const base = y * sw * 4;
      for (let x = 0; x < sw; x++) {
        const t = colTarget[x]! * 4;
        const share = colShare[x]!;
        const p = base + x * 4;
        const r = src[p]!,
          g = src[p + 1]!,
          b = src[p + 2]!,
          a = src[p + 3]!;
        row[t] = row[t]! + r * share;
        row[t + 1] = row[t + 1]! + g * share;
        row[t + 2] = row[t + 2]! + b * share;
        row[t + 3] = row[t + 3]! + a * share;
        if (share < 1 && t + 4 < row.length) {
          const rest = 1 - share;
          row[t + 4] = row[t + 4]! + r * rest;
          row[t + 5] = row[t + 5]! + g * rest;
          row[t + 6] = row[t + 6]! + b * rest;
          row[t + 7] = row[t + 7]! + a * rest;
        }
      }
      for (let i = 0; i < acc.length; i++) acc[i] = acc[i]! + row[i]! * wy;
    }
    const o = ty * width * 4;
    for (let i = 0; i < acc.length; i++) out[o + i] = acc[i]! / area;
  }
  return { data: out, width, height };
}

/** A few passes of a 3x3 box blur (edges clamped), in place on a small image. */
function boxBlur(image: Pixels, passes: number): void {
  const { data, width, height } = image;
  const tmp = new Float32Array(data.length);
  for (let pass = 0; pass < passes; pass++) {
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        for (let c = 0; c < 3; c++) {
          let sum = 0;
          for (let dy = -1; dy <= 1; dy++) {
            const yy = Math.min(height - 1, Math.max(0, y + dy));
            for (let dx = -1; dx <= 1; dx++) {
              const xx = Math.min(width - 1, Math.max(0, x + dx));
              sum += data[(yy * width + xx) * 4 + c]!;
            }
          }
          tmp[(y * width + x) * 4 + c] = sum / 9;
        }
      }
    }
    for (let i = 0; i < data.length; i++) if (i % 4 !== 3) data[i] = tmp[i]!;
  }
}

async function decode(bytes: Uint8Array, type: ImageType): Promise<Pixels> {
  // The codecs want an ArrayBuffer of exactly the file.
  const buffer =
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
      ? (bytes.buffer as ArrayBuffer)
      : bytes.slice().buffer;
  try {
    if (type === "jpeg") return await decodeJpeg(buffer);
    if (type === "png") return await decodePng(buffer);
    return await decodeWebp(buffer);
  } catch {
    throw unreadable();
  }
}

/** Check, decode and remake an upload: the stored original, its thumbnail and its blurred version, all JPEG. */
export async function processPhoto(bytes: Uint8Array): Promise<ProcessedPhoto> {
  const { type } = checkUpload(bytes);
  const decoded = await decode(bytes, type);
  // The header said what to expect; a decoder that gives more is not trusted either.
  if (!decoded || decoded.width < 1 || decoded.height < 1 || decoded.width * decoded.height > MAX_PHOTO_PIXELS)
    throw unreadable();
  flattenOntoWhite(decoded);

  const size = fitInside(decoded.width, decoded.height, MAX_EDGE, MAX_EDGE);
  const original = shrinkByArea(decoded, size.width, size.height);
  const thumbSize = fitInside(original.width, original.height, THUMB_WIDTH, THUMB_MAX_HEIGHT);
  const thumb = shrinkByArea(original, thumbSize.width, thumbSize.height);

  // Blurred: a handful of pixels, blurred, then enlarged smoothly. What is left are colour patches.
  const tinySize = fitInside(thumb.width, thumb.height, BLUR_SOURCE_EDGE, BLUR_SOURCE_EDGE);
  const tiny = shrinkByArea(thumb, tinySize.width, tinySize.height);
  boxBlur(tiny, 2);
  const blurSize = fitInside(original.width, original.height, BLUR_WIDTH, BLUR_MAX_HEIGHT);
  const blurred = await resample(tiny, blurSize.width, blurSize.height, "triangle");

  const [originalJpeg, thumbJpeg, blurJpeg] = [
    await encodeJpeg(original, QUALITY.original),
    await encodeJpeg(thumb, QUALITY.thumb),
    await encodeJpeg(blurred, QUALITY.blur),
  ];
  return { original: originalJpeg, thumb: thumbJpeg, blur: blurJpeg, width: original.width, height: original.height };
}
