import type { Context, MiddlewareHandler } from "hono";
import { NONCE, secureHeaders } from "hono/secure-headers";

/**
 * The sockets a page may open: its own host only. Older Safari did not count ws:/wss: as 'self',
 * so the host is named; plain ws: only in development served over http.
 */
function ownSockets(c: Context<{ Bindings: Env }>): string {
  const url = new URL(c.req.url);
  const development = c.env.ENVIRONMENT === "development" && url.protocol === "http:";
  return development ? `wss://${url.host} ws://${url.host}` : `wss://${url.host}`;
}

/**
 * Browser features the product may use: geolocation on its own pages (the location button of the
 * profile) and the camera (the verification selfie, docs/decisions/0040). Every other feature a current browser knows of is denied, ad-interest tracking included.
 * Only features Chromium recognises are named: each unknown one costs every page a console warning.
 */
export const PERMISSIONS_POLICY = [
  "geolocation=(self)",
  "camera=(self)",
  ...[
    "accelerometer",
    "autoplay",
    "browsing-topics",
    "compute-pressure",
    "display-capture",
    "encrypted-media",
    "gyroscope",
    "hid",
    "identity-credentials-get",
    "idle-detection",
    "interest-cohort",
    "local-fonts",
    "magnetometer",
    "microphone",
    "midi",
    "otp-credentials",
    "payment",
    "picture-in-picture",
    "publickey-credentials-create",
    "publickey-credentials-get",
    "screen-wake-lock",
    "serial",
    "storage-access",
    "usb",
    "window-management",
    "xr-spatial-tracking",
  ].map((feature) => `${feature}=()`),
].join(", ");

/**
 * Security headers for every answer. Scripts run only from this origin or with the per-request
 * nonce that the renderer puts on its inline scripts; fetches and sockets go to this site only; the
 * service worker and the manifest come from this origin. The operators' console uses the same.
 */
export const securityHeaders = <E extends { Bindings: Env }>(): MiddlewareHandler<E> => {
  const headers = secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", NONCE],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:", "blob:"],
      connectSrc: ["'self'", (c) => ownSockets(c as Context<{ Bindings: Env }>)],
      workerSrc: ["'self'"],
      manifestSrc: ["'self'"],
      frameAncestors: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      objectSrc: ["'none'"],
    },
    referrerPolicy: "strict-origin-when-cross-origin",
    crossOriginEmbedderPolicy: false,
  });
  return async (c, next) => {
    await headers(c, next);
    c.res.headers.set("permissions-policy", PERMISSIONS_POLICY);
  };
};
