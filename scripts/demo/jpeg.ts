/**
 * A baseline JPEG encoder (JFIF, 4:2:0 chroma subsampling, the standard Annex K tables, AAN
 * float DCT). Written here because jpeg-js only does 4:4:4, which is about twice the work.
 */

const ZIGZAG = new Uint8Array([
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
  35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47,
  55, 62, 63,
]);

// Quantisation tables of ITU T.81 Annex K, in natural (row-major) order.
const LUMA_Q = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51,
  87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101,
  72, 92, 95, 98, 112, 100, 103, 99,
];
const CHROMA_Q = [
  17,
  18,
  24,
  47,
  99,
  99,
  99,
  99,
  18,
  21,
  26,
  66,
  99,
  99,
  99,
  99,
  24,
  26,
  56,
  99,
  99,
  99,
  99,
  99,
  47,
  66,
  99,
  99,
  99,
  99,
  99,
  99,
  ...Array.from({ length: 32 }, () => 99),
];

// Huffman tables of Annex K.3: code counts per length 1..16, then the symbols.
const DC_LUMA_BITS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
const DC_CHROMA_BITS = [0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0];
const DC_VALUES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const AC_LUMA_BITS = [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7d];
const AC_LUMA_VALUES = hex(
  "01020300041105122131410613516107227114328191a1082342b1c11552d1f02433627282090a161718191a25262728292a34353637" +
    "38393a434445464748494a535455565758595a636465666768696a737475767778797a838485868788898a92939495969798999aa2a3" +
    "a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9eaf1f2f3f4f5f6f7f8f9fa",
);
const AC_CHROMA_BITS = [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77];
const AC_CHROMA_VALUES = hex(
  "000102031104052131061241510761711322328108144291a1b1c109233352f0156272d10a162434e125f11718191a262728292a3536" +
    "3738393a434445464748494a535455565758595a636465666768696a737475767778797a82838485868788898a92939495969798999a" +
    "a2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae2e3e4e5e6e7e8e9eaf2f3f4f5f6f7f8f9fa",
);

function hex(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i += 2) out.push(parseInt(s.slice(i, i + 2), 16));
  return out;
}

interface Huffman {
  code: Uint16Array;
  size: Uint8Array;
}

function huffman(bits: readonly number[], values: readonly number[]): Huffman {
  const code = new Uint16Array(256);
  const size = new Uint8Array(256);
  let c = 0;
  let k = 0;
  for (let len = 1; len <= 16; len++) {
    for (let i = 0; i < (bits[len - 1] as number); i++) {
      const v = values[k++] as number;
      code[v] = c++;
      size[v] = len;
    }
    c <<= 1;
  }
  return { code, size };
}

const DC_LUMA = huffman(DC_LUMA_BITS, DC_VALUES);
const DC_CHROMA = huffman(DC_CHROMA_BITS, DC_VALUES);
const AC_LUMA = huffman(AC_LUMA_BITS, AC_LUMA_VALUES);
const AC_CHROMA = huffman(AC_CHROMA_BITS, AC_CHROMA_VALUES);

const AASF = [1.0, 1.387039845, 1.306562965, 1.175875602, 1.0, 0.785694958, 0.5411961, 0.275899379];

/** IJG quality scaling; returns the table in natural order. */
function scaledTable(base: readonly number[], quality: number): Uint8Array {
  const q = Math.min(100, Math.max(1, Math.round(quality)));
  const s = q < 50 ? 5000 / q : 200 - q * 2;
  return Uint8Array.from(base, (v) => Math.min(255, Math.max(1, Math.floor((v * s + 50) / 100))));
}

/** Multipliers that fold the AAN output scaling into quantisation, in natural order. */
function divisors(table: Uint8Array): Float32Array {
  const out = new Float32Array(64);
  for (let i = 0; i < 64; i++)
    out[i] = 1 / ((table[i] as number) * (AASF[i >> 3] as number) * (AASF[i & 7] as number) * 8);
  return out;
}

/** In-place forward DCT of an 8x8 block (AAN, as in IJG's jfdctflt). */
function fdct(d: Float32Array): void {
  for (let pass = 0; pass < 2; pass++) {
    const step = pass === 0 ? 1 : 8;
    const stride = pass === 0 ? 8 : 1;
    for (let line = 0; line < 8; line++) {
      const o = line * stride;
      const d0 = d[o] as number;
      const d1 = d[o + step] as number;
      const d2 = d[o + 2 * step] as number;
      const d3 = d[o + 3 * step] as number;
      const d4 = d[o + 4 * step] as number;
      const d5 = d[o + 5 * step] as number;
      const d6 = d[o + 6 * step] as number;
      const d7 = d[o + 7 * step] as number;
      const t0 = d0 + d7;
      const t7 = d0 - d7;
      const t1 = d1 + d6;
      const t6 = d1 - d6;
      const t2 = d2 + d5;
      const t5 = d2 - d5;
      const t3 = d3 + d4;
      const t4 = d3 - d4;
      let t10 = t0 + t3;
      const t13 = t0 - t3;
      let t11 = t1 + t2;
      let t12 = t1 - t2;
      d[o] = t10 + t11;
      d[o + 4 * step] = t10 - t11;
      const z1 = (t12 + t13) * 0.707106781;
      d[o + 2 * step] = t13 + z1;
      d[o + 6 * step] = t13 - z1;
      t10 = t4 + t5;
      t11 = t5 + t6;
      t12 = t6 + t7;
      const z5 = (t10 - t12) * 0.382683433;
      const z2 = 0.5411961 * t10 + z5;
      const z4 = 1.306562965 * t12 + z5;
      const z3 = t11 * 0.707106781;
      const z11 = t7 + z3;
      const z13 = t7 - z3;
      d[o + 5 * step] = z13 + z2;
      d[o + 3 * step] = z13 - z2;
      d[o + step] = z11 + z4;
      d[o + 7 * step] = z11 - z4;
    }
  }
}

class BitWriter {
  buf: Uint8Array<ArrayBuffer>;
  pos = 0;
  private acc = 0;
  private count = 0;

  constructor(capacity: number) {
    this.buf = new Uint8Array(capacity);
  }

  ensure(extra: number): void {
    if (this.pos + extra <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.pos + extra));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  bytes(values: ArrayLike<number>): void {
    this.ensure(values.length);
    for (let i = 0; i < values.length; i++) this.buf[this.pos++] = values[i] as number;
  }

  word(v: number): void {
    this.bytes([(v >> 8) & 0xff, v & 0xff]);
  }

  bits(code: number, len: number): void {
    this.acc = (this.acc << len) | code;
    this.count += len;
    while (this.count >= 8) {
      this.count -= 8;
      const b = (this.acc >>> this.count) & 0xff;
      this.buf[this.pos++] = b;
      if (b === 0xff) this.buf[this.pos++] = 0;
    }
    this.acc &= (1 << this.count) - 1;
  }

  flush(): void {
    if (this.count > 0) this.bits((1 << (8 - this.count)) - 1, 8 - this.count);
  }
}

const block = new Float32Array(64);
const quantised = new Int32Array(64);

function encodeBlock(w: BitWriter, div: Float32Array, prevDc: number, dc: Huffman, ac: Huffman): number {
  fdct(block);
  for (let i = 0; i < 64; i++) {
    const z = ZIGZAG[i] as number;
    quantised[i] = Math.round((block[z] as number) * (div[z] as number));
  }
  w.ensure(256);
  const diff = (quantised[0] as number) - prevDc;
  const mag = diff < 0 ? -diff : diff;
  const cat = mag === 0 ? 0 : 32 - Math.clz32(mag);
  w.bits(dc.code[cat] as number, dc.size[cat] as number);
  if (cat > 0) w.bits(diff < 0 ? diff + (1 << cat) - 1 : diff, cat);
  let run = 0;
  for (let i = 1; i < 64; i++) {
    const v = quantised[i] as number;
    if (v === 0) {
      run++;
      continue;
    }
    while (run > 15) {
      w.bits(ac.code[0xf0] as number, ac.size[0xf0] as number);
      run -= 16;
    }
    const m = v < 0 ? -v : v;
    const c = 32 - Math.clz32(m);
    const sym = (run << 4) | c;
    w.bits(ac.code[sym] as number, ac.size[sym] as number);
    w.bits(v < 0 ? v + (1 << c) - 1 : v, c);
    run = 0;
  }
  if (run > 0) w.bits(ac.code[0] as number, ac.size[0] as number);
  return quantised[0] as number;
}

/**
 * Y at full size and Cb, Cr at half size (each the mean of a 2x2 block), from RGB with `channels`
 * values per pixel, padded to whole 16x16 blocks by repeating the edge. Values are clamped to 0..255.
 */
function planes(pixels: ArrayLike<number>, channels: number, width: number, height: number) {
  const pw = Math.ceil(width / 16) * 16;
  const ph = Math.ceil(height / 16) * 16;
  const y = new Float32Array(pw * ph);
  const cb = new Float32Array((pw / 2) * (ph / 2));
  const cr = new Float32Array((pw / 2) * (ph / 2));
  const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : v);
  for (let row = 0; row < ph; row++) {
    const src = Math.min(row, height - 1) * width;
    const half = (row >> 1) * (pw >> 1);
    for (let col = 0; col < pw; col++) {
      const i = (src + Math.min(col, width - 1)) * channels;
      const r = clamp(pixels[i] as number);
      const g = clamp(pixels[i + 1] as number);
      const b = clamp(pixels[i + 2] as number);
      y[row * pw + col] = 0.299 * r + 0.587 * g + 0.114 * b - 128;
      const c = half + (col >> 1);
      cb[c] = (cb[c] as number) + (-0.168736 * r - 0.331264 * g + 0.5 * b) * 0.25;
      cr[c] = (cr[c] as number) + (0.5 * r - 0.418688 * g - 0.081312 * b) * 0.25;
    }
  }
  return { y, cb, cr, pw, ph };
}

function load(plane: Float32Array, stride: number, x: number, y: number): void {
  for (let r = 0; r < 8; r++) {
    const o = (y + r) * stride + x;
    for (let c = 0; c < 8; c++) block[r * 8 + c] = plane[o + c] as number;
  }
}

function segment(w: BitWriter, marker: number, body: number[]): void {
  w.word(marker);
  w.word(body.length + 2);
  w.bytes(body);
}

/** Encodes pixels given as RGBA bytes, or as RGB values (any numbers, clamped) with `channels` 3. */
export function encodeJpeg(
  pixels: ArrayLike<number>,
  width: number,
  height: number,
  quality = 85,
  channels = 4,
): Uint8Array<ArrayBuffer> {
  const lq = scaledTable(LUMA_Q, quality);
  const cq = scaledTable(CHROMA_Q, quality);
  const w = new BitWriter(Math.max(4096, (width * height) >> 1));
  w.word(0xffd8);
  segment(w, 0xffe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  segment(w, 0xffdb, [
    0,
    ...Array.from(ZIGZAG, (z) => lq[z] as number),
    1,
    ...Array.from(ZIGZAG, (z) => cq[z] as number),
  ]);
  segment(w, 0xffc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  segment(w, 0xffc4, [
    0x00,
    ...DC_LUMA_BITS,
    ...DC_VALUES,
    0x10,
    ...AC_LUMA_BITS,
    ...AC_LUMA_VALUES,
    0x01,
    ...DC_CHROMA_BITS,
    ...DC_VALUES,
    0x11,
    ...AC_CHROMA_BITS,
    ...AC_CHROMA_VALUES,
  ]);
  segment(w, 0xffda, [3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0]);

  const { y, cb, cr, pw, ph } = planes(pixels, channels, width, height);
  const ld = divisors(lq);
  const cd = divisors(cq);
  let dcY = 0;
  let dcCb = 0;
  let dcCr = 0;
  for (let my = 0; my < ph; my += 16) {
    for (let mx = 0; mx < pw; mx += 16) {
      for (let k = 0; k < 4; k++) {
        load(y, pw, mx + (k & 1) * 8, my + (k >> 1) * 8);
        dcY = encodeBlock(w, ld, dcY, DC_LUMA, AC_LUMA);
      }
      load(cb, pw >> 1, mx >> 1, my >> 1);
      dcCb = encodeBlock(w, cd, dcCb, DC_CHROMA, AC_CHROMA);
      load(cr, pw >> 1, mx >> 1, my >> 1);
      dcCr = encodeBlock(w, cd, dcCr, DC_CHROMA, AC_CHROMA);
    }
  }
  w.flush();
  w.word(0xffd9);
  return w.buf.slice(0, w.pos);
}
