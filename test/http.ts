import { exports } from "cloudflare:workers";

/** Send a request to the Worker under test, as a browser on that host would. */
export function fetchWorker(url: string, init: RequestInit = {}): Promise<Response> {
  return exports.default.fetch(new Request(url, init));
}

export async function json<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

/**
 * A browser-like client for one site: keeps cookies, and sends what this site's own pages send on
 * state-changing calls (X-Request-Type and the same-origin Origin).
 */
export class Browser {
  readonly cookies = new Map<string, string>();

  constructor(readonly origin: string) {}

  async fetch(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const method = init.method ?? "GET";
    if (method !== "GET" && !headers.has("x-request-type")) headers.set("x-request-type", "client");
    if (method !== "GET" && !headers.has("origin")) headers.set("origin", this.origin);
    const jar = [...this.cookies].map(([k, v]) => `${k}=${v}`);
    const given = headers.get("cookie");
    if (jar.length || given) headers.set("cookie", [...(given ? [given] : []), ...jar].join("; "));
    let body = init.body;
    if (init.json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(init.json);
    }
    const response = await fetchWorker(this.origin + path, {
      ...init,
      method,
      headers,
      body: body ?? null,
      redirect: "manual",
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair, ...attributes] = cookie.split(";");
      const [name, ...value] = pair!.split("=");
      const expired = attributes.some((a) => /max-age=0/i.test(a.trim()));
      if (expired || value.join("=") === "") this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value.join("="));
    }
    return response;
  }

  post(path: string, body?: unknown) {
    return this.fetch(path, { method: "POST", ...(body === undefined ? {} : { json: body }) });
  }
  put(path: string, body?: unknown) {
    return this.fetch(path, { method: "PUT", ...(body === undefined ? {} : { json: body }) });
  }
  delete(path: string, body?: unknown) {
    return this.fetch(path, { method: "DELETE", ...(body === undefined ? {} : { json: body }) });
  }
}
