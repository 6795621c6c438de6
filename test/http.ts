import { exports } from "cloudflare:workers";

/** Send a request to the Worker under test, as a browser on that host would. */
export function fetchWorker(url: string, init: RequestInit = {}): Promise<Response> {
  return exports.default.fetch(new Request(url, init));
}

export async function json<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}
