/**
 * Draws an illustrated head-and-shoulders portrait: backdrop, shoulders and clothes, neck, face
 * with skin tone, eyes in the eye colour, mouth, and hair in the hair colour with a style typical
 * for the gender. Everything varies with the seed.
 */
import type { Gender } from "./names";
import type { EyeColor, HairColor } from "./profiles";
import { Random } from "./random";
import {
  Canvas,
  boxAround,
  capsule,
  circle,
  egg,
  ellipse,
  intersect,
  mix,
  outline,
  roundedBox,
  scale,
  subtract,
  union,
  type RGB,
  type Sdf,
} from "./raster";

export const PORTRAIT_WIDTH = 480;
export const PORTRAIT_HEIGHT = 600;

export interface PortraitSpec {
  gender: Gender;
  hairColor: HairColor;
  eyeColor: EyeColor;
  seed: number;
}

const HAIR: Readonly<Record<Exclude<HairColor, "other">, RGB>> = {
  black: [36, 30, 29],
  brown: [96, 63, 42],
  blonde: [212, 176, 112],
  red: [166, 76, 38],
  grey: [172, 170, 166],
};
const DYED: readonly RGB[] = [
  [118, 58, 128],
  [62, 84, 152],
  [222, 118, 150],
  [232, 226, 216],
  [40, 110, 120],
];

const EYES: Readonly<Record<EyeColor, RGB>> = {
  blue: [70, 124, 182],
  brown: [92, 56, 30],
  green: [74, 130, 80],
  grey: [120, 130, 138],
  hazel: [140, 104, 52],
};

const SKIN: readonly (readonly [RGB, number])[] = [
  [[247, 221, 202], 18],
  [[240, 201, 174], 30],
  [[227, 182, 150], 24],
  [[205, 150, 112], 14],
  [[166, 112, 80], 8],
  [[116, 78, 56], 6],
];

const BACKDROPS: readonly (readonly [RGB, RGB])[] = [
  [
    [214, 226, 238],
    [146, 166, 194],
  ],
  [
    [240, 226, 210],
    [192, 158, 130],
  ],
  [
    [222, 236, 222],
    [136, 166, 138],
  ],
  [
    [246, 224, 228],
    [204, 148, 160],
  ],
  [
    [234, 234, 238],
    [166, 166, 178],
  ],
  [
    [250, 236, 202],
    [216, 166, 108],
  ],
  [
    [204, 222, 240],
    [86, 116, 158],
  ],
  [
    [230, 216, 238],
    [146, 118, 168],
  ],
  [
    [196, 220, 242],
    [112, 150, 104],
  ],
];

const CLOTHES: readonly RGB[] = [
  [40, 58, 98],
  [176, 40, 52],
  [238, 238, 236],
  [32, 32, 36],
  [88, 128, 108],
  [198, 150, 62],
  [118, 80, 140],
  [160, 190, 220],
  [218, 150, 162],
  [110, 110, 116],
  [148, 92, 62],
  [226, 214, 190],
];

type HairStyle =
  | "long"
  | "wavy"
  | "bob"
  | "bun"
  | "pixie"
  | "short"
  | "quiff"
  | "buzz"
  | "curly"
  | "balding"
  | "shoulder";

interface Look {
  cx: number;
  cy: number;
  rx: number;
  ry: number;
  taper: number;
  skin: RGB;
  hair: RGB;
  brow: RGB;
  eye: RGB;
  style: HairStyle;
  part: number;
  gender: Gender;
}

const vary = (c: RGB, rnd: Random, amount: number): RGB => scale(c, 1 + rnd.range(-amount, amount));

function hairStyle(spec: PortraitSpec, rnd: Random): HairStyle {
  if (spec.gender === "female") {
    return rnd.weighted({ long: 30, wavy: 22, bob: 18, bun: 14, pixie: spec.hairColor === "grey" ? 30 : 8 });
  }
  return rnd.weighted({
    short: 30,
    quiff: 20,
    buzz: 12,
    curly: spec.hairColor === "black" ? 14 : 6,
    balding: spec.hairColor === "grey" ? 40 : 4,
    shoulder: 6,
  });
}

/** Strand texture plus a sheen on the upper left, as a brightness factor. */
function hairShade(l: Look, strands: number): (x: number, y: number) => number {
  const ox = l.cx;
  const oy = l.cy - l.ry * 1.4;
  const hx = l.cx - l.rx * 0.35;
  const hy = l.cy - l.ry * 0.7;
  const hr = l.ry * 0.6;
  return (x, y) => {
    const a = Math.atan2(x - ox, y - oy);
    const s = Math.sin(a * strands + Math.sin(a * 11) * 2.2 + Math.sin(a * 37 + y * 0.015) * 0.9);
    const h = Math.max(0, 1 - Math.hypot(x - hx, y - hy) / hr);
    return 0.86 + 0.07 * s + 0.3 * h * h;
  };
}

/** Everything soft (gradient, bokeh, the sitter's shadow) is drawn at quarter size and scaled up. */
function drawBackdrop(l: Look, rnd: Random): Canvas {
  const k = 4;
  const c = new Canvas(PORTRAIT_WIDTH / k, PORTRAIT_HEIGHT / k);
  const [top, bottom] = rnd.pick(BACKDROPS);
  c.gradient(top, bottom, rnd.range(-0.4, 0.4), 1);
  const glow = mix(top, [255, 255, 255], 0.5);
  for (let i = rnd.int(5, 10); i > 0; i--) {
    const r = rnd.range(18, 70) / k;
    const x = rnd.range(0, c.width);
    const y = rnd.range(0, c.height * 0.75);
    c.fill(circle(x, y, r), boxAround(x, y, r, r), glow, { alpha: rnd.range(0.08, 0.22), soft: rnd.range(8, 30) / k });
  }
  const sx = (l.cx + 18) / k;
  const sy = (l.cy + 60) / k;
  c.fill(
    ellipse(sx, sy, (l.rx * 1.5) / k, (l.ry * 1.5) / k),
    boxAround(sx, sy, (l.rx * 2.4) / k, (l.ry * 2.4) / k),
    [0, 0, 0],
    {
      alpha: 0.12,
      soft: 80 / k,
    },
  );
  return c.resize(PORTRAIT_WIDTH, PORTRAIT_HEIGHT);
}

function drawBody(c: Canvas, l: Look, rnd: Random): void {
  const male = l.gender === "male";
  const sw = (male ? 236 : 200) + rnd.range(-12, 12);
  const chin = l.cy + l.ry;
  const top = chin + (male ? 28 : 40) + rnd.range(-6, 10);
  const neckW = l.rx * (male ? 0.5 : 0.42);
  const slope = rnd.range(0.22, 0.34);
  const box = roundedBox(l.cx, top + 300, sw, 300, 120);
  // Shoulders fall away from the neck.
  const torso: Sdf = (x, y) => box(x, y - slope * Math.max(0, Math.abs(x - l.cx) - neckW * 1.3));
  const cloth = rnd.pick(CLOTHES);
  const torsoBox = { x0: l.cx - sw, y0: top, x1: l.cx + sw, y1: c.height };

  // The neck goes under the clothes; the neckline opening shows skin again on top of them.
  const neckTop = l.cy + l.ry * 0.45;
  const neckBottom = top + 60;
  const neckShade = (x: number, y: number) =>
    (0.76 + 0.24 * Math.min(1, Math.max(0, (y - chin) / 40))) * (1 - 0.18 * ((x - l.cx) / neckW) ** 2);
  const neck = roundedBox(l.cx, (neckTop + neckBottom) / 2, neckW, (neckBottom - neckTop) / 2, neckW * 0.4);
  c.fill(neck, boxAround(l.cx, (neckTop + neckBottom) / 2, neckW, (neckBottom - neckTop) / 2), l.skin, {
    shade: neckShade,
  });

  c.fill(torso, torsoBox, cloth, { shade: (x) => 1.03 - 0.3 * ((x - l.cx + 40) / sw) ** 2 });

  const style = rnd.int(0, 2);
  let opening: Sdf;
  if (style === 0) {
    const depth = rnd.range(70, 110);
    const v: Sdf = (x, y) => (Math.abs(x - l.cx) - (top + depth - y) * 0.6) * 0.85;
    opening = intersect(torso, v);
    c.fill(opening, boxAround(l.cx, top + depth / 2, 90, depth / 2 + 10), l.skin, { shade: neckShade });
    c.fill(intersect(outline(v, 5), torso), boxAround(l.cx, top + depth / 2, 95, depth / 2 + 12), scale(cloth, 0.8), {
      alpha: 0.7,
    });
  } else {
    const depth = style === 1 ? rnd.range(14, 24) : rnd.range(40, 70);
    opening = intersect(torso, ellipse(l.cx, top, neckW + (male ? 12 : 44), depth));
    c.fill(opening, boxAround(l.cx, top, neckW + 50, depth + 2), l.skin, { shade: neckShade });
    c.fill(intersect(outline(opening, 6), torso), boxAround(l.cx, top, neckW + 56, depth + 6), scale(cloth, 0.82), {
      alpha: 0.8,
    });
  }
  // Shadow of the head and neck on the chest.
  c.fill(
    intersect(ellipse(l.cx, top + 12, neckW * 1.1, 16), opening),
    boxAround(l.cx, top + 12, neckW * 1.2, 20),
    scale(l.skin, 0.75),
    {
      alpha: 0.3,
      soft: 14,
    },
  );
}

function faceShade(l: Look): (x: number, y: number) => number {
  const lx = l.cx - l.rx * 0.25;
  const ly = l.cy - l.ry * 0.25;
  return (x, y) => {
    const dx = (x - lx) / l.rx;
    const dy = (y - ly) / l.ry;
    return 1.06 - 0.17 * (dx * dx + dy * dy);
  };
}

function drawHead(c: Canvas, l: Look): void {
  const { cx, cy, rx, ry } = l;
  for (const side of [-1, 1]) {
    const ex = cx + side * rx * 0.96;
    const ey = cy + ry * 0.1;
    c.fill(
      ellipse(ex, ey, rx * 0.15, ry * 0.21, side * 0.15),
      boxAround(ex, ey, rx * 0.2, ry * 0.25),
      scale(l.skin, 0.92),
    );
    c.fill(
      ellipse(ex + side * 2, ey, rx * 0.07, ry * 0.13),
      boxAround(ex, ey, rx * 0.1, ry * 0.15),
      scale(l.skin, 0.78),
      {
        alpha: 0.5,
        soft: 4,
      },
    );
  }
  c.fill(egg(cx, cy, rx, ry, l.taper), boxAround(cx, cy, rx, ry), l.skin, { shade: faceShade(l) });
}

function drawEyes(c: Canvas, l: Look, rnd: Random): void {
  const { cx, cy, rx, ry } = l;
  const female = l.gender === "female";
  const ey = cy + ry * 0.05;
  const ew = rx * 0.2;
  const eh = ew * (female ? 0.56 : 0.48);
  const look = rnd.range(-2, 2);
  const browY = ey - ry * 0.2;
  const browTilt = rnd.range(0.04, 0.14);
  for (const side of [-1, 1]) {
    const ex = cx + side * rx * 0.4;
    const white = ellipse(ex, ey, ew, eh);
    const box = boxAround(ex, ey, ew * 1.6, eh * 2.4);
    c.fill(white, box, [238, 234, 230]);
    const ir = eh * 0.98;
    const ix = ex + look;
    c.fill(intersect(white, circle(ix, ey + 0.5, ir)), box, l.eye, {
      shade: (x, y) => 1.2 - 0.55 * (Math.hypot(x - ix, y - ey) / ir) ** 2,
    });
    c.fill(intersect(white, circle(ix, ey + 0.5, ir * 0.45)), box, [18, 14, 14]);
    c.fill(circle(ix - ir * 0.32, ey - ir * 0.32, ir * 0.22), box, [255, 255, 255], { alpha: 0.9 });
    // Upper lid: a crescent over the eye; eyeliner and lashes make it bolder for women.
    const lid = subtract(
      ellipse(ex, ey - 0.5, ew * 1.06, eh * 1.18),
      ellipse(ex, ey + eh * (female ? 0.32 : 0.22), ew * 1.1, eh * 1.1),
    );
    c.fill(
      intersect(lid, (_x, y) => y - ey - eh * 0.2),
      box,
      female ? [26, 18, 18] : [70, 46, 38],
      { alpha: female ? 0.95 : 0.75 },
    );
    const crease = intersect(
      outline(ellipse(ex, ey + eh * 0.1, ew * 1.08, eh * 1.9), 1.4),
      (_x, y) => y - (ey - eh * 0.9),
    );
    c.fill(crease, box, scale(l.skin, 0.7), { alpha: 0.35 });
    const bx = ex + side * ew * 0.1;
    const brow = ellipse(bx, browY, ew * 1.25, female ? 3.2 : 5.2, -side * browTilt);
    c.fill(brow, boxAround(bx, browY, ew * 1.4, 12), l.brow, { alpha: 0.92 });
  }
}

function drawNoseAndMouth(c: Canvas, l: Look, rnd: Random): void {
  const { cx, cy, rx, ry, skin } = l;
  const female = l.gender === "female";
  const ny = cy + ry * 0.38;
  c.fill(
    ellipse(cx + rx * 0.09, ny - ry * 0.14, rx * 0.07, ry * 0.22),
    boxAround(cx, ny - ry * 0.14, rx * 0.2, ry * 0.3),
    scale(skin, 0.8),
    {
      alpha: 0.3,
      soft: 8,
    },
  );
  c.fill(ellipse(cx, ny + 6, rx * 0.17, 5), boxAround(cx, ny + 6, rx * 0.22, 10), scale(skin, 0.78), {
    alpha: 0.35,
    soft: 6,
  });
  for (const side of [-1, 1]) {
    c.fill(
      ellipse(cx + side * rx * 0.085, ny + 3, 4.4, 2.6, side * 0.3),
      boxAround(cx + side * rx * 0.085, ny + 3, 7, 5),
      scale(skin, 0.5),
      {
        alpha: 0.6,
        soft: 1.6,
      },
    );
  }
  c.fill(ellipse(cx - 3, ny - 5, 5, 4), boxAround(cx, ny - 5, 9, 8), [255, 255, 255], { alpha: 0.14, soft: 5 });

  const my = cy + ry * 0.62;
  const mw = rx * (female ? 0.34 : 0.31);
  const smile = rnd.range(2, 7);
  const lip = female
    ? mix(
        skin,
        rnd.pick<RGB>([
          [186, 66, 82],
          [200, 96, 100],
          [160, 60, 70],
        ]),
        rnd.range(0.45, 0.8),
      )
    : mix(skin, [168, 88, 84], 0.3);
  const box = boxAround(cx, my, mw + 6, 22);
  const line = (x: number) => my + smile * (1 - ((x - cx) / mw) ** 2);
  c.fill(
    intersect(ellipse(cx, my + 1, mw, female ? 7 : 5.5), (x, y) => y - line(x)),
    box,
    scale(lip, 0.92),
  );
  c.fill(
    intersect(ellipse(cx, my + smile * 0.6 + 3, mw * 0.82, female ? 10 : 7.5), (x, y) => line(x) - y),
    box,
    lip,
    {
      shade: (_x, y) => 1.1 - 0.2 * Math.max(0, (y - my) / 10),
    },
  );
  c.fill((x, y) => Math.max(Math.abs(x - cx) - mw, Math.abs(y - line(x)) - 0.9), box, scale(lip, 0.45), { alpha: 0.9 });
  if (female) {
    for (const side of [-1, 1]) {
      const bx = cx + side * rx * 0.52;
      const by = cy + ry * 0.36;
      c.fill(ellipse(bx, by, rx * 0.2, ry * 0.1), boxAround(bx, by, rx * 0.4, ry * 0.3), [232, 118, 120], {
        alpha: 0.16,
        soft: 26,
      });
    }
  }
}

function drawBeard(c: Canvas, l: Look, rnd: Random): void {
  const { cx, cy, rx, ry } = l;
  const full = rnd.chance(0.45);
  const my = cy + ry * 0.62;
  // Higher at the sideburns, below the nose in the middle.
  const edge = (x: number) => cy + ry * (0.3 + 0.18 * Math.max(0, 1 - ((x - cx) / (rx * 0.8)) ** 2));
  const jaw = intersect(egg(cx, cy + 3, rx * 1.01, ry * 1.04, l.taper), (x, y) => edge(x) - y);
  const mouth = ellipse(cx, my + 3, rx * 0.3, 8);
  const beard = full ? union(subtract(jaw, mouth), ellipse(cx, my - 9, rx * 0.34, 6.5)) : subtract(jaw, mouth);
  c.fill(beard, boxAround(cx, cy + ry * 0.6, rx * 1.05, ry * 0.5), scale(l.hair, 0.9), {
    alpha: full ? 0.92 : 0.16,
    soft: full ? 3 : 16,
    shade: hairShade(l, 140),
  });
}

/** Hair behind the head and shoulders, for the long styles. */
function drawBackHair(c: Canvas, l: Look, rnd: Random): void {
  const { cx, cy, rx, ry } = l;
  const shade = hairShade(l, 90);
  if (l.style === "long" || l.style === "wavy" || l.style === "shoulder") {
    const len = l.style === "shoulder" ? ry * 0.85 : ry * rnd.range(1.15, 1.5);
    const wave = l.style === "wavy" ? rnd.range(3, 6) : 0;
    const body = roundedBox(cx, cy + ry * 0.1 + len / 2, rx * 1.2, len / 2, rx * 0.45);
    const crown = ellipse(cx, cy - ry * 0.12, rx * 1.24, ry * 1.12);
    const back: Sdf = (x, y) => Math.min(crown(x, y), body(x, y)) + wave * Math.sin(y * 0.09);
    c.fill(
      back,
      { x0: cx - rx * 1.5, y0: cy - ry * 1.4, x1: cx + rx * 1.5, y1: cy + len + ry * 0.5 },
      scale(l.hair, 0.82),
      { shade },
    );
  } else if (l.style === "bob") {
    const back = intersect(ellipse(cx, cy + ry * 0.05, rx * 1.28, ry * 1.12), (_x, y) => y - (cy + ry * 0.98));
    c.fill(back, boxAround(cx, cy, rx * 1.4, ry * 1.2), scale(l.hair, 0.85), { shade });
  }
}

function drawFrontHair(c: Canvas, l: Look, rnd: Random): void {
  const { cx, cy, rx, ry } = l;
  const shade = hairShade(l, l.gender === "female" ? 90 : 150);
  const box = boxAround(cx, cy - ry * 0.1, rx * 1.4, ry * 1.3);
  const above =
    (f: (x: number) => number): Sdf =>
    (x, y) =>
      y - f(x);
  const face = (f: (x: number) => number): Sdf =>
    intersect(egg(cx, cy + ry * 0.04, rx * 0.9, ry, l.taper), (x, y) => f(x) - y);
  const px = l.part;
  switch (l.style) {
    case "long":
    case "wavy":
    case "shoulder": {
      const hairline = (x: number) => cy - ry * 0.6 + ry * 0.55 * ((x - px) / rx) ** 2;
      c.fill(subtract(ellipse(cx, cy - ry * 0.12, rx * 1.13, ry * 1.05), face(hairline)), box, l.hair, { shade });
      if (l.style !== "shoulder") {
        for (const side of [-1, 1]) {
          const sx = cx + side * rx * 0.98;
          const lock = roundedBox(sx, cy + ry * 1.05, rx * 0.2, ry * 0.85, rx * 0.18);
          const w = l.style === "wavy" ? 3.5 : 0;
          c.fill(
            (x, y) => lock(x, y) + w * Math.sin(y * 0.11 + side),
            boxAround(sx, cy + ry * 1.05, rx * 0.3, ry * 0.9),
            l.hair,
            { shade },
          );
        }
      }
      break;
    }
    case "bob": {
      const fringe = (x: number) => cy - ry * 0.34 + ry * 0.3 * ((x - cx) / rx) ** 4;
      c.fill(subtract(ellipse(cx, cy - ry * 0.08, rx * 1.16, ry * 1.06), face(fringe)), box, l.hair, { shade });
      break;
    }
    case "bun": {
      const hairline = (x: number) => cy - ry * 0.58 + ry * 0.35 * ((x - cx) / rx) ** 2;
      c.fill(
        circle(cx, cy - ry * 1.05, rx * 0.42),
        boxAround(cx, cy - ry * 1.05, rx * 0.45, rx * 0.45),
        scale(l.hair, 0.9),
        { shade },
      );
      c.fill(
        intersect(
          subtract(ellipse(cx, cy - ry * 0.1, rx * 1.06, ry * 0.99), face(hairline)),
          (_x, y) => y - (cy + ry * 0.15),
        ),
        box,
        l.hair,
        {
          shade,
        },
      );
      break;
    }
    case "pixie": {
      const sweep = (x: number) => cy - ry * 0.46 + ry * 0.28 * ((x - cx) / rx) * Math.sign(px - cx || 1);
      c.fill(
        intersect(
          subtract(ellipse(cx, cy - ry * 0.14, rx * 1.09, ry * 1.0), face(sweep)),
          (_x, y) => y - (cy + ry * 0.12),
        ),
        box,
        l.hair,
        {
          shade,
        },
      );
      break;
    }
    case "short":
    case "quiff": {
      const hairline = (x: number) => cy - ry * 0.5 + ry * 0.16 * ((x - cx) / rx) ** 2;
      const lift = l.style === "quiff" ? ry * 0.08 : 0;
      const cap = intersect(ellipse(cx, cy - ry * 0.1 - lift, rx * 1.06, ry * 1.0 + lift), above(hairline));
      const burns = union(
        roundedBox(cx - rx * 0.93, cy - ry * 0.2, rx * 0.09, ry * 0.24, 5),
        roundedBox(cx + rx * 0.93, cy - ry * 0.2, rx * 0.09, ry * 0.24, 5),
      );
      const top =
        l.style === "quiff" ? ellipse(cx + (px - cx) * 0.5, cy - ry * 0.92, rx * 0.72, ry * 0.28, -0.08) : cap;
      c.fill(union(cap, top, burns), box, l.hair, { shade });
      break;
    }
    case "buzz": {
      const hairline = (x: number) => cy - ry * 0.55 + ry * 0.15 * ((x - cx) / rx) ** 2;
      c.fill(intersect(ellipse(cx, cy - ry * 0.04, rx * 1.02, ry * 0.99), above(hairline)), box, l.hair, {
        alpha: 0.8,
      });
      break;
    }
    case "curly": {
      const hairline = (x: number) => cy - ry * 0.48 + ry * 0.18 * ((x - cx) / rx) ** 2;
      const bumps: Sdf[] = [];
      for (let a = -3.0; a <= -0.1; a += 0.32) {
        bumps.push(
          circle(cx + Math.cos(a) * rx * 0.92, cy - ry * 0.2 + Math.sin(a) * ry * 0.88, rx * rnd.range(0.26, 0.34)),
        );
      }
      c.fill(
        intersect(union(...bumps, ellipse(cx, cy - ry * 0.2, rx * 0.95, ry * 0.85)), above(hairline)),
        boxAround(cx, cy - ry * 0.4, rx * 1.4, ry * 1.2),
        l.hair,
        {
          shade: hairShade(l, 260),
        },
      );
      break;
    }
    case "balding": {
      const sides = intersect(
        ellipse(cx, cy - ry * 0.05, rx * 1.05, ry * 0.98),
        (x) => rx * 0.66 - Math.abs(x - cx),
        (_x, y) => Math.abs(y - (cy - ry * 0.12)) - ry * 0.24,
      );
      c.fill(sides, box, l.hair, { shade, soft: 8 });
      break;
    }
  }
}

function drawGlasses(c: Canvas, l: Look, rnd: Random): void {
  const { cx, cy, rx, ry } = l;
  const ey = cy + ry * 0.06;
  const frame: RGB = rnd.pick<RGB>([
    [28, 28, 32],
    [92, 58, 40],
    [150, 120, 80],
    [60, 70, 110],
  ]);
  const w = rx * 0.3;
  const h = w * rnd.range(0.62, 0.8);
  const lenses: Sdf[] = [];
  for (const side of [-1, 1]) lenses.push(roundedBox(cx + side * rx * 0.42, ey, w, h, h * rnd.range(0.3, 0.9)));
  const box = boxAround(cx, ey, rx * 1.05, h + 6);
  for (const lens of lenses) c.fill(lens, box, [255, 255, 255], { alpha: 0.08 });
  const bridge = capsule(cx - rx * 0.12, ey - h * 0.3, cx + rx * 0.12, ey - h * 0.3, 1.6);
  const arms = union(
    capsule(cx - rx * 0.72, ey - h * 0.4, cx - rx * 0.96, ey - h * 0.5, 1.8),
    capsule(cx + rx * 0.72, ey - h * 0.4, cx + rx * 0.96, ey - h * 0.5, 1.8),
  );
  c.fill(union(...lenses.map((s) => outline(s, 4)), bridge, arms), box, frame);
}

export function drawPortrait(spec: PortraitSpec): Canvas {
  const rnd = new Random(spec.seed);
  const female = spec.gender === "female";
  const ry = rnd.range(116, 128);
  const hair = spec.hairColor === "other" ? rnd.pick(DYED) : vary(HAIR[spec.hairColor], rnd, 0.12);
  const cx = PORTRAIT_WIDTH / 2 + rnd.range(-14, 14);
  const look: Look = {
    cx,
    cy: 250 + rnd.range(-10, 8),
    rx: ry * (female ? rnd.range(0.74, 0.8) : rnd.range(0.78, 0.86)),
    ry,
    taper: rnd.range(0.22, female ? 0.42 : 0.3),
    skin: vary(rnd.weightedBy(SKIN, ([, w]) => w)[0], rnd, 0.03),
    hair,
    brow:
      spec.hairColor === "blonde" || spec.hairColor === "grey" || spec.hairColor === "other"
        ? mix(hair, [70, 50, 36], 0.55)
        : scale(hair, 0.8),
    eye: vary(EYES[spec.eyeColor], rnd, 0.1),
    style: hairStyle(spec, rnd),
    part: cx + rnd.range(-0.35, 0.35) * ry,
    gender: spec.gender,
  };
  const c = drawBackdrop(look, rnd);
  drawBackHair(c, look, rnd);
  drawBody(c, look, rnd);
  drawHead(c, look);
  drawEyes(c, look, rnd);
  drawNoseAndMouth(c, look, rnd);
  if (!female && rnd.chance(0.35)) drawBeard(c, look, rnd);
  drawFrontHair(c, look, rnd);
  if (rnd.chance(0.16)) drawGlasses(c, look, rnd);
  return c;
}
