/**
 * Demo profile pictures, generated offline: each portrait as the original JPEG, a thumbnail and a
 * blurred version that shows nothing recognisable. A pool of distinct portraits per
 * (gender, hair colour, eye colour) is shared by all demo profiles.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { encodeJpeg } from "./jpeg";
import type { Gender } from "./names";
import { drawPortrait, PORTRAIT_HEIGHT, PORTRAIT_WIDTH } from "./portrait";
import { EYE_COLORS, HAIR_COLORS, type EyeColor, type HairColor } from "./profiles";
import { hashString } from "./random";

export const IMAGE_WIDTH = PORTRAIT_WIDTH;
export const IMAGE_HEIGHT = PORTRAIT_HEIGHT;
export const THUMB_WIDTH = PORTRAIT_WIDTH / 3;
export const THUMB_HEIGHT = PORTRAIT_HEIGHT / 3;

/** Distinct portraits per (gender, hair, eyes): 2 x 6 x 5 x 5 = 300 in the pool. */
export const VARIANTS_PER_LOOK = 5;
const GENDERS: readonly Gender[] = ["female", "male"];
export const POOL_SIZE = GENDERS.length * HAIR_COLORS.length * EYE_COLORS.length * VARIANTS_PER_LOOK;

export interface ImageVariants {
  width: number;
  height: number;
  original: Uint8Array<ArrayBuffer>;
  thumb: Uint8Array<ArrayBuffer>;
  blur: Uint8Array<ArrayBuffer>;
}

export interface Look {
  gender: Gender;
  hairColor: HairColor;
  eyeColor: EyeColor;
}

export function renderImage(look: Look, seed: number): ImageVariants {
  const canvas = drawPortrait({ ...look, seed });
  const thumb = canvas.downscale(3);
  // Blur a 1/8 copy hard, then scale it back up: cheap, and nothing of the face survives.
  const small = canvas.downscale(8);
  small.boxBlur(3, 3);
  const blurred = small.resize(IMAGE_WIDTH, IMAGE_HEIGHT);
  return {
    width: IMAGE_WIDTH,
    height: IMAGE_HEIGHT,
    original: encodeJpeg(canvas.data, canvas.width, canvas.height, 85, 3),
    thumb: encodeJpeg(thumb.data, thumb.width, thumb.height, 82, 3),
    blur: encodeJpeg(blurred.data, blurred.width, blurred.height, 60, 3),
  };
}

/** Index in the pool of variant `variant` of a look. */
export function poolIndex(look: Look, variant: number): number {
  const g = GENDERS.indexOf(look.gender);
  const h = HAIR_COLORS.indexOf(look.hairColor);
  const e = EYE_COLORS.indexOf(look.eyeColor);
  return ((g * HAIR_COLORS.length + h) * EYE_COLORS.length + e) * VARIANTS_PER_LOOK + (variant % VARIANTS_PER_LOOK);
}

export function poolLook(index: number): Look {
  const e = Math.floor(index / VARIANTS_PER_LOOK) % EYE_COLORS.length;
  const h = Math.floor(index / (VARIANTS_PER_LOOK * EYE_COLORS.length)) % HAIR_COLORS.length;
  const g = Math.floor(index / (VARIANTS_PER_LOOK * EYE_COLORS.length * HAIR_COLORS.length));
  return { gender: GENDERS[g] as Gender, hairColor: HAIR_COLORS[h] as HairColor, eyeColor: EYE_COLORS[e] as EyeColor };
}

export function poolImageSeed(seed: number, index: number): number {
  return hashString(`image:${seed}:${index}`);
}

/** The pool's images, rendered on first use and kept. */
export class ImagePool {
  private readonly cache = new Map<number, ImageVariants>();

  constructor(private readonly seed: number) {}

  get(index: number): ImageVariants {
    let img = this.cache.get(index);
    if (!img) {
      img = renderImage(poolLook(index), poolImageSeed(this.seed, index));
      this.cache.set(index, img);
    }
    return img;
  }
}

/**
 * Renders pool images on worker threads (one per core but one, leaving a core to whoever takes
 * the images) and hands each to `onImage` in completion order. While `onImage` is pending no
 * further work is started, so a slow consumer holds the renderers back.
 */
export async function renderPool(
  seed: number,
  indices: readonly number[],
  onImage: (index: number, img: ImageVariants) => Promise<void>,
  threads = Math.max(1, availableParallelism() - 1),
): Promise<void> {
  const queue = [...indices];
  const workers = Array.from(
    { length: Math.min(threads, queue.length) },
    () => new Worker(new URL("./render-worker.ts", import.meta.url)),
  );
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            const next = () => {
              const index = queue.shift();
              if (index === undefined) resolve();
              else worker.postMessage({ seed, index });
            };
            worker.on("message", (m: { index: number; img: ImageVariants }) => {
              onImage(m.index, m.img).then(next, reject);
            });
            worker.on("error", reject);
            next();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
