import type { ReactElement } from "react";
import { renderToReadableStream } from "react-dom/server";

const BOTS = /bot|crawl|spider|slurp|facebookexternalhit|preview/i;

/**
 * JSON for an inline script: nothing in it can close the script element or open a comment. U+2028 and
 * U+2029 may stay as they are: JavaScript has allowed them in string literals since ES2019, as every
 * browser that runs the app's modules does.
 */
export function inlineJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

type StreamOptions = {
  status: number;
  nonce: string | undefined;
  entry: string;
  bootstrap: string;
  userAgent: string | undefined;
  requestId: string;
  headers?: Record<string, string>;
};

/**
 * Stream a page: the shell goes out as soon as it is ready and the rest follows. Crawlers get the
 * whole document at once (allReady). Errors inside the stream are logged with the request id.
 */
export async function streamPage(
  element: ReactElement,
  options: StreamOptions,
): Promise<{ body: ReadableStream; status: number; headers: Record<string, string> }> {
  const stream = await renderToReadableStream(element, {
    ...(options.nonce ? { nonce: options.nonce } : {}),
    bootstrapScriptContent: options.bootstrap,
    bootstrapModules: [options.entry],
    onError(error: unknown) {
      console.error(
        JSON.stringify({
          event: "stream_error",
          requestId: options.requestId,
          message: error instanceof Error ? error.message : String(error),
        }),
      );
    },
  });
  if (options.userAgent && BOTS.test(options.userAgent)) await stream.allReady;
  return {
    body: stream,
    status: options.status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "private, no-cache", ...options.headers },
  };
}
