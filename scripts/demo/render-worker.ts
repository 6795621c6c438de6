/** Worker thread of renderPool (images.ts): renders pool images by index and sends the JPEGs back. */
import { parentPort } from "node:worker_threads";
import { poolImageSeed, poolLook, renderImage } from "./images";

export interface RenderRequest {
  seed: number;
  index: number;
}

parentPort?.on("message", ({ seed, index }: RenderRequest) => {
  const img = renderImage(poolLook(index), poolImageSeed(seed, index));
  parentPort?.postMessage({ index, img }, [img.original.buffer, img.thumb.buffer, img.blur.buffer]);
});
