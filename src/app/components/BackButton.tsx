import { useSyncExternalStore } from "react";
import { useRouter, useT } from "../page/page-context";
import { isInstalledApp } from "./EntryWarning";
import { noSubscription } from "../hooks/useStoredTimestamp";

/** SPEC §2: routes whose top bar has a Back button in the installed app. */
const BACK_BUTTON_ROUTES = new Set(["members-id", "likes-type", "likes-m-id", "credits", "credits-id-paymentmethod"]);

/** Whether the Back button shows: in the installed app (PWA), with history to go back to, on those routes. */
export function showBackButton(installedApp: boolean, historyLength: number, routeName: string | null): boolean {
  return installedApp && historyLength > 1 && routeName !== null && BACK_BUTTON_ROUTES.has(routeName);
}

/** A browser tab has its own back button; the installed app has none, so it gets this one. */
export function BackButton() {
  const { match } = useRouter();
  const t = useT();
  // Read on the client only: the server cannot know whether the page runs as the installed app.
  const installed = useSyncExternalStore(noSubscription, isInstalledApp, () => false);
  const historyLength = useSyncExternalStore(
    noSubscription,
    () => window.history.length,
    () => 0,
  );
  if (!showBackButton(installed, historyLength, match?.route.name ?? null)) return null;
  return (
    <button type="button" className="top-bar__back" onClick={() => window.history.back()} aria-label={t("nav.back")}>
      ‹ {t("nav.back")}
    </button>
  );
}
