import type { SWRConfiguration } from "swr";
import type { ApiError } from "../../shared/api";

/** A failed API call, with the server's status and its error body (code, message, field). */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiError,
  ) {
    super(body.message);
  }
}

/** Fired when the server says the session is gone: the app logs the member out (SPEC §8). */
export const LOGOUT_EVENT = "app:logout";

/** SPEC §8: 403 authentication_required logs the member out, except on the user endpoint itself. */
function checkSession(url: string, status: number, body: ApiError | null) {
  if (
    status === 403 &&
    body?.error === "authentication_required" &&
    !url.startsWith("/api/user.php") &&
    typeof window !== "undefined"
  ) {
    window.dispatchEvent(new Event(LOGOUT_EVENT));
  }
}

/** GET an /api/*.php call as JSON (SPEC §7: header X-Request-Type: client). */
export async function apiFetch<T>(key: string): Promise<T> {
  const response = await fetch(key, {
    headers: { "X-Request-Type": "client", Accept: "application/json" },
    credentials: "same-origin",
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as ApiError | null;
    checkSession(key, response.status, body);
    throw new ApiRequestError(response.status, body ?? { error: "http_error", message: response.statusText });
  }
  return (await response.json()) as T;
}

/**
 * Send a state-changing call (POST, PUT, DELETE) with a JSON body. The X-Request-Type header and the
 * browser's same-origin Origin are what the server's CSRF check asks for. Throws ApiRequestError
 * with the server's { error, message, field } on failure.
 */
export async function apiSend<T>(method: "POST" | "PUT" | "DELETE", url: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    headers: {
      "X-Request-Type": "client",
      Accept: "application/json",
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    credentials: "same-origin",
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return answerOf<T>(url, response);
}

/**
 * POST a multipart form (a photo upload): the same header and credentials as apiSend, the browser
 * sets the multipart Content-Type. Throws ApiRequestError with the server's { error, message, field }.
 */
export async function apiSendForm<T>(url: string, form: FormData): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "X-Request-Type": "client", Accept: "application/json" },
    credentials: "same-origin",
    body: form,
  });
  return answerOf<T>(url, response);
}

/** The JSON answer of a state-changing call, or ApiRequestError with the server's { error, message, field }. */
async function answerOf<T>(url: string, response: Response): Promise<T> {
  const data = (await response.json().catch(() => null)) as unknown;
  if (!response.ok) {
    const error = (data ?? { error: "http_error", message: response.statusText }) as ApiError;
    checkSession(url, response.status, error);
    throw new ApiRequestError(response.status, error);
  }
  return data as T;
}

const MAX_RETRIES = 5;
const RETRY_BASE_MS = 500;

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
