import type { SWRConfiguration } from "swr";
import type { ApiError } from "../shared/api";

/** A failed API call, with the server's status and its error body (code, message, field). */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiError,
  ) {
    super(body.message);
  }
}

/** GET an /api/*.php call as JSON (SPEC §7: header X-Request-Type: client). */
export async function apiFetch<T>(key: string): Promise<T> {
  const response = await fetch(key, { headers: { "X-Request-Type": "client", Accept: "application/json" }, credentials: "same-origin" });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as ApiError | null;
    throw new ApiRequestError(response.status, body ?? { error: "http_error", message: response.statusText });
  }
  return (await response.json()) as T;
}

export const MAX_RETRIES = 5;
export const RETRY_BASE_MS = 500;

/** swr defaults: page data is fresh when embedded; failed calls retry up to 5 times with exponential delay. */
export const swrConfig: SWRConfiguration = {
  fetcher: apiFetch,
  revalidateOnFocus: false,
  revalidateIfStale: false,
  onErrorRetry(error, _key, _config, revalidate, { retryCount }) {
    if (error instanceof ApiRequestError && error.status < 500) return;
    if (retryCount > MAX_RETRIES) return;
    setTimeout(() => void revalidate({ retryCount }), RETRY_BASE_MS * 2 ** (retryCount - 1));
  },
};
