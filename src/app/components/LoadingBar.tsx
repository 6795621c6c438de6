import { useEffect, useState } from "react";

/** SPEC §4, §9: starts after a 200 ms throttle, creeps towards the end over 5000 ms, hides 500 ms after finishing. */
export const LOADING_THROTTLE_MS = 200;
export const LOADING_DURATION_MS = 5000;
export const LOADING_HIDE_DELAY_MS = 500;

type State = { visible: boolean; progress: number };
let state: State = { visible: false, progress: 0 };
const listeners = new Set<(s: State) => void>();
let active = 0;
let throttle: ReturnType<typeof setTimeout> | undefined;
let ticker: ReturnType<typeof setInterval> | undefined;
let hide: ReturnType<typeof setTimeout> | undefined;

function set(next: State) {
  state = next;
  listeners.forEach((l) => l(state));
}

export const loading = {
  /** What the bar shows now. */
  state: (): Readonly<State> => state,
  start() {
    active++;
    if (active > 1) return;
    clearTimeout(hide);
    throttle = setTimeout(() => {
      const started = Date.now();
      set({ visible: true, progress: 5 });
      ticker = setInterval(() => {
        // Ease towards 90 % over the duration; only finishing reaches 100 %.
        const ratio = Math.min(1, (Date.now() - started) / LOADING_DURATION_MS);
        set({ visible: true, progress: 5 + 85 * ratio });
      }, 100);
    }, LOADING_THROTTLE_MS);
  },
  finish() {
    active = Math.max(0, active - 1);
    if (active > 0) return;
    clearTimeout(throttle);
    clearInterval(ticker);
    if (!state.visible) return;
    set({ visible: true, progress: 100 });
    hide = setTimeout(() => set({ visible: false, progress: 0 }), LOADING_HIDE_DELAY_MS);
  },
};

export function LoadingBar() {
  const [current, setCurrent] = useState(state);
  useEffect(() => {
    listeners.add(setCurrent);
    return () => void listeners.delete(setCurrent);
  }, []);
  if (!current.visible) return null;
  return (
    <div
      className="loading-bar"
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(current.progress)}
    >
      <div className="loading-bar__fill" style={{ width: `${current.progress}%` }} />
    </div>
  );
}
