/**
 * Draws the installed app's PNG icons from the site icon (public/icons/icon.svg) with the local
 * Chromium, once; the PNGs are committed (`npx tsx scripts/app-icons.ts` after changing the icon).
 * - icon-192.png, icon-512.png: the icon as it is (rounded corners, transparent outside);
 * - icon-maskable-512.png: full-bleed background, the heart inside the 80 % safe circle, for masks;
 * - badge-96.png: the heart alone in white, the status-bar badge of a notification (Android).
 */
import { readFileSync } from "node:fs";
import { chromium } from "playwright-core";

const GRADIENT = `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ff8a00"/><stop offset="1" stop-color="#e8412c"/></linearGradient></defs>`;
const HEART = `M32 50s-16-9.6-16-21a9 9 0 0 1 16-5.7A9 9 0 0 1 48 29c0 11.4-16 21-16 21z`;

const ICONS: { file: string; size: number; svg: string }[] = [
  { file: "icon-192.png", size: 192, svg: readFileSync("public/icons/icon.svg", "utf8") },
  { file: "icon-512.png", size: 512, svg: readFileSync("public/icons/icon.svg", "utf8") },
  {
    file: "icon-maskable-512.png",
    size: 512,
    svg: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">${GRADIENT}<rect width="64" height="64" fill="url(#g)"/><path d="${HEART}" fill="#fff" transform="translate(32 34) scale(0.75) translate(-32 -34)"/></svg>`,
  },
  {
    file: "badge-96.png",
    size: 96,
    svg: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="12 12 40 40"><path d="${HEART}" fill="#fff"/></svg>`,
  },
];

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu"],
});
try {
  for (const { file, size, svg } of ICONS) {
    const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
    const sized = svg.replace("<svg ", `<svg width="${size}" height="${size}" `);
    await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${sized}</body></html>`);
    await page.locator("svg").screenshot({ path: `public/icons/${file}`, omitBackground: true });
    await page.close();
    console.info(JSON.stringify({ event: "app_icon", file, size }));
  }
} finally {
  await browser.close();
}
