import { useEffect, useState } from "react";
import type { GeocodeResponse } from "../../shared/api";
import { GEOCODE_STORAGE_KEY } from "../../shared/browser-storage";
import { apiFetch } from "../page/api";

/** SPEC §3: unsupported (no navigator.geolocation), unknown (no Permissions API), or the browser's state. */
type GeolocationPermission = "unsupported" | "unknown" | PermissionState;

function readGeolocationPermission(): Promise<GeolocationPermission> {
  if (typeof navigator === "undefined" || !("geolocation" in navigator) || !navigator.geolocation)
    return Promise.resolve("unsupported");
  if (!navigator.permissions?.query) return Promise.resolve("unknown");
  return navigator.permissions
    .query({ name: "geolocation" })
    .then((status) => status.state)
    .catch(() => "unknown" as const);
}

/**
 * The geolocation permission, kept up to date while the component shows. "unknown" on the server
 * and before the first check, so the server's HTML and the first render agree.
 */
export function useGeolocationPermission(): [GeolocationPermission, (state: GeolocationPermission) => void] {
  const [state, setState] = useState<GeolocationPermission>("unknown");
  useEffect(() => {
    let cancelled = false;
    let status: PermissionStatus | null = null;
    const onChange = () => {
      if (status && !cancelled) setState(status.state);
    };
    void readGeolocationPermission().then((initial) => {
      if (cancelled) return;
      setState(initial);
      if (initial === "unsupported" || initial === "unknown") return;
      void navigator.permissions
        .query({ name: "geolocation" })
        .then((s) => {
          status = s;
          s.addEventListener("change", onChange);
        })
        .catch(() => undefined);
    });
    return () => {
      cancelled = true;
      status?.removeEventListener("change", onChange);
    };
  }, []);
  return [state, setState];
}

function store(value: GeocodeResponse | false) {
  try {
    sessionStorage.setItem(GEOCODE_STORAGE_KEY, JSON.stringify(value));
  } catch {
    // storage unavailable (private mode): nothing to keep
  }
}

export class GeolocationDenied extends Error {}

/** The browser's position, as a promise. */
function position(): Promise<GeolocationPosition> {
  return new Promise((resolve, reject) => {
    navigator.geolocation.getCurrentPosition(resolve, reject, {
      enableHighAccuracy: false,
      timeout: 15_000,
      maximumAge: 10 * 60_000,
    });
  });
}

/**
 * Where the member is: the browser's position, rounded to 2 decimals (about a kilometre), sent only to
 * GET /api/geocode.php and then forgotten; the town answered is kept in session storage (`false` on
 * failure). Throws GeolocationDenied when the member or the browser refuses, another error otherwise.
 */
export async function locate(): Promise<GeocodeResponse> {
  let coords: GeolocationCoordinates;
  try {
    coords = (await position()).coords;
  } catch (error) {
    store(false);
    if (error && typeof error === "object" && "code" in error && error.code === 1)
      throw new GeolocationDenied("denied");
    throw error instanceof Error ? error : new Error("position unavailable");
  }
  const lat = coords.latitude.toFixed(2);
  const lon = coords.longitude.toFixed(2);
  try {
    const answer = await apiFetch<GeocodeResponse>(
      `/api/geocode.php?lat=${encodeURIComponent(lat)}&lon=${encodeURIComponent(lon)}`,
    );
    store(answer);
    return answer;
  } catch (error) {
    store(false);
    throw error;
  }
}
