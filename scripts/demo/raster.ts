/**
 * A tiny software rasteriser: shapes are signed distance functions (negative inside, in pixels),
 * filled with coverage-based anti-aliasing into a float RGB canvas. Plus resampling and blur.
 */

export type RGB = readonly [number, number, number];
/** Signed distance to the shape's edge in pixels: negative inside. */
export type Sdf = (x: number, y: number) => number;
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface FillOptions {
  alpha?: number;
  /** Width of the edge ramp in pixels: 1 is a crisp anti-aliased edge, larger is a soft glow. */
  soft?: number;
  /** Brightness factor per pixel, for shading and texture. */
  shade?: (x: number, y: number) => number;
}

/** How much of a distance to trust when skipping: the shape functions are approximations. */
const SKIP = 0.5;

export class Canvas {
  readonly data: Float32Array;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.data = new Float32Array(width * height * 3);
  }

  /** A linear gradient from `from` to `to` along the direction (dx, dy). */
  gradient(from: RGB, to: RGB, dx: number, dy: number): void {
    const { width: w, height: h, data } = this;
    const len = Math.hypot(dx, dy) || 1;
    const ux = dx / len;
    const uy = dy / len;
    const span = Math.abs(ux) * w + Math.abs(uy) * h;
    const base = Math.min(0, ux * w) + Math.min(0, uy * h);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const t = (ux * x + uy * y - base) / span;
        const i = (y * w + x) * 3;
        data[i] = from[0] + (to[0] - from[0]) * t;
        data[i + 1] = from[1] + (to[1] - from[1]) * t;
        data[i + 2] = from[2] + (to[2] - from[2]) * t;
      }
    }
  }

  /**
   * Fills a shape. Distances are lower bounds, so a pixel at distance d from the edge has
   * neighbours along the row that are surely outside (or inside) for about d pixels: those are
   * skipped (or filled) without calling the shape function.
   */
  fill(sdf: Sdf, box: Box, color: RGB, opts: FillOptions = {}): void {
    const { width: w, data } = this;
    const alpha = opts.alpha ?? 1;
    const soft = opts.soft ?? 1;
    const half = soft / 2;
    const shade = opts.shade;
    const x0 = Math.max(0, Math.floor(box.x0 - half));
    const y0 = Math.max(0, Math.floor(box.y0 - half));
    const x1 = Math.min(w, Math.ceil(box.x1 + half));
    const y1 = Math.min(this.height, Math.ceil(box.y1 + half));
    const [r, g, b] = color;
    const blend = (x: number, y: number, a: number) => {
      const s = shade ? shade(x + 0.5, y + 0.5) : 1;
      const i = (y * w + x) * 3;
      data[i] = (data[i] as number) + (r * s - (data[i] as number)) * a;
      data[i + 1] = (data[i + 1] as number) + (g * s - (data[i + 1] as number)) * a;
      data[i + 2] = (data[i + 2] as number) + (b * s - (data[i + 2] as number)) * a;
    };
    for (let y = y0; y < y1; y++) {
      const py = y + 0.5;
      let x = x0;
      while (x < x1) {
        const d = sdf(x + 0.5, py);
        if (d >= half) {
          x += Math.max(1, Math.floor((d - half) * SKIP));
        } else if (d <= -half) {
          const end = Math.min(x1, x + Math.max(1, Math.floor((-d - half) * SKIP)));
          for (; x < end; x++) blend(x, y, alpha);
        } else {
          blend(x, y, (0.5 - d / soft) * alpha);
          x++;
        }
      }
    }
  }

  /** RGBA bytes (clamped and rounded), as JPEG encoders take them. */
  toRgba(): Uint8ClampedArray {
    const n = this.width * this.height;
    const out = new Uint8ClampedArray(n * 4);
    const d = this.data;
    for (let i = 0, j = 0; i < n * 3; i += 3, j += 4) {
      out[j] = d[i] as number;
      out[j + 1] = d[i + 1] as number;
      out[j + 2] = d[i + 2] as number;
      out[j + 3] = 255;
    }
    return out;
  }

  /** Shrinks by an integer factor, averaging each factor x factor block. */
  downscale(factor: number): Canvas {
    const w = Math.floor(this.width / factor);
    const h = Math.floor(this.height / factor);
    const out = new Canvas(w, h);
    const src = this.data;
    const dst = out.data;
    const norm = 1 / (factor * factor);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        let r = 0;
        let g = 0;
        let b = 0;
        for (let yy = 0; yy < factor; yy++) {
          let i = ((y * factor + yy) * this.width + x * factor) * 3;
          for (let xx = 0; xx < factor; xx++, i += 3) {
            r += src[i] as number;
            g += src[i + 1] as number;
            b += src[i + 2] as number;
          }
        }
        const o = (y * w + x) * 3;
        dst[o] = r * norm;
        dst[o + 1] = g * norm;
        dst[o + 2] = b * norm;
      }
    }
    return out;
  }

  /** Bilinear resize to an exact size. */
  resize(w: number, h: number): Canvas {
    const out = new Canvas(w, h);
    const sw = this.width;
    const src = this.data;
    const dst = out.data;
    // Source columns and weights are the same for every row.
    const xa = new Int32Array(w);
    const xb = new Int32Array(w);
    const xt = new Float32Array(w);
    for (let x = 0; x < w; x++) {
      const fx = Math.min(Math.max((x + 0.5) * (sw / w) - 0.5, 0), sw - 1);
      const x0 = Math.floor(fx);
      xa[x] = x0 * 3;
      xb[x] = Math.min(x0 + 1, sw - 1) * 3;
      xt[x] = fx - x0;
    }
    for (let y = 0; y < h; y++) {
      const fy = Math.min(Math.max((y + 0.5) * (this.height / h) - 0.5, 0), this.height - 1);
      const y0 = Math.floor(fy);
      const ty = fy - y0;
      const r0 = y0 * sw * 3;
      const r1 = Math.min(y0 + 1, this.height - 1) * sw * 3;
      let o = y * w * 3;
      for (let x = 0; x < w; x++, o += 3) {
        const a0 = r0 + (xa[x] as number);
        const b0 = r0 + (xb[x] as number);
        const a1 = r1 + (xa[x] as number);
        const b1 = r1 + (xb[x] as number);
        const tx = xt[x] as number;
        const w00 = (1 - tx) * (1 - ty);
        const w01 = tx * (1 - ty);
        const w10 = (1 - tx) * ty;
        const w11 = tx * ty;
        dst[o] =
          (src[a0] as number) * w00 + (src[b0] as number) * w01 + (src[a1] as number) * w10 + (src[b1] as number) * w11;
        dst[o + 1] =
          (src[a0 + 1] as number) * w00 +
          (src[b0 + 1] as number) * w01 +
          (src[a1 + 1] as number) * w10 +
          (src[b1 + 1] as number) * w11;
        dst[o + 2] =
          (src[a0 + 2] as number) * w00 +
          (src[b0 + 2] as number) * w01 +
          (src[a1 + 2] as number) * w10 +
          (src[b1 + 2] as number) * w11;
      }
    }
    return out;
  }

  /** Separable box blur with clamped edges; three passes approximate a Gaussian. */
  boxBlur(radius: number, passes: number): void {
    const tmp = new Float32Array(this.data.length);
    for (let p = 0; p < passes; p++) {
      blurLine(this.data, tmp, this.width, this.height, radius, true);
      blurLine(tmp, this.data, this.width, this.height, radius, false);
    }
  }
}

function blurLine(src: Float32Array, dst: Float32Array, w: number, h: number, r: number, horizontal: boolean): void {
  const lines = horizontal ? h : w;
  const len = horizontal ? w : h;
  const step = horizontal ? 3 : w * 3;
  const norm = 1 / (2 * r + 1);
  for (let l = 0; l < lines; l++) {
    const start = horizontal ? l * w * 3 : l * 3;
    for (let k = 0; k < 3; k++) {
      const at = (i: number) => src[start + Math.min(Math.max(i, 0), len - 1) * step + k] as number;
      let sum = 0;
      for (let i = -r; i <= r; i++) sum += at(i);
      for (let i = 0; i < len; i++) {
        dst[start + i * step + k] = sum * norm;
        sum += at(i + r + 1) - at(i - r);
      }
    }
  }
}

// ---- Shapes -------------------------------------------------------------------------------

export function circle(cx: number, cy: number, r: number): Sdf {
  return (x, y) => Math.hypot(x - cx, y - cy) - r;
}

/** Approximate distance to an ellipse, exact enough near its edge for anti-aliasing. */
export function ellipse(cx: number, cy: number, rx: number, ry: number, angle = 0): Sdf {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const rx2 = rx * rx;
  const ry2 = ry * ry;
  return (x, y) => {
    const dx = x - cx;
    const dy = y - cy;
    const u = dx * cos + dy * sin;
    const v = -dx * sin + dy * cos;
    const nx = u / rx;
    const ny = v / ry;
    const k = Math.sqrt(nx * nx + ny * ny);
    if (k < 1e-6) return -Math.min(rx, ry);
    const g = Math.sqrt((nx * nx) / rx2 + (ny * ny) / ry2) / k;
    return (k - 1) / g;
  };
}

/** An ellipse whose width narrows towards the bottom, like a face towards the chin. */
export function egg(cx: number, cy: number, rx: number, ry: number, taper: number): Sdf {
  const base = ellipse(0, 0, rx, ry);
  return (x, y) => {
    const t = Math.max(0, (y - cy) / ry);
    const k = 1 - taper * t * t;
    return base((x - cx) / k, y - cy) * (0.5 + 0.5 * k);
  };
}

export function roundedBox(cx: number, cy: number, hw: number, hh: number, r: number): Sdf {
  return (x, y) => {
    const qx = Math.abs(x - cx) - hw + r;
    const qy = Math.abs(y - cy) - hh + r;
    return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
  };
}

/** A line segment with round caps and thickness 2r. */
export function capsule(ax: number, ay: number, bx: number, by: number, r: number): Sdf {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy || 1;
  return (x, y) => {
    const t = Math.min(1, Math.max(0, ((x - ax) * dx + (y - ay) * dy) / len2));
    return Math.hypot(x - ax - dx * t, y - ay - dy * t) - r;
  };
}

export const union =
  (...shapes: Sdf[]): Sdf =>
  (x, y) => {
    let d = Infinity;
    for (const s of shapes) d = Math.min(d, s(x, y));
    return d;
  };

export const intersect =
  (...shapes: Sdf[]): Sdf =>
  (x, y) => {
    let d = -Infinity;
    for (const s of shapes) d = Math.max(d, s(x, y));
    return d;
  };

export const subtract =
  (a: Sdf, b: Sdf): Sdf =>
  (x, y) =>
    Math.max(a(x, y), -b(x, y));

/** The band of width `width` around a shape's edge. */
export const outline =
  (s: Sdf, width: number): Sdf =>
  (x, y) =>
    Math.abs(s(x, y)) - width / 2;

/** The half plane below the curve y = f(x) (negative where y > f(x)). */
export const below =
  (f: (x: number) => number): Sdf =>
  (x, y) =>
    f(x) - y;

export function boxAround(cx: number, cy: number, rx: number, ry: number): Box {
  return { x0: cx - rx, y0: cy - ry, x1: cx + rx, y1: cy + ry };
}

export function mix(a: RGB, b: RGB, t: number): RGB {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

export function scale(c: RGB, k: number): RGB {
  return [c[0] * k, c[1] * k, c[2] * k];
}
