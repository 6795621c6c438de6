import { ENTRY_SKIP_KEY } from "../../shared/browser-storage";
import { usePage, useT } from "../page/page-context";
import { useHydrated } from "../hooks/useHydrated";
import { NOT_KNOWN_YET, useStoredTimestamp } from "../hooks/useStoredTimestamp";
import { useUser } from "../hooks/useUser";

/** Set on <html> by ENTRY_SKIPPED_SCRIPT before the body is parsed, when the warning must not show. */
const ENTRY_SKIPPED_ATTRIBUTE = "data-entry-skipped";
/**
 * Runs in <head> before the first paint: the server renders the warning for every visitor it may
 * concern (so a first visit paints it at once instead of after hydration), and this hides it from
 * those who skipped it before or use the installed app, without a flash.
 */
export const ENTRY_SKIPPED_SCRIPT = `try{if(localStorage.getItem(${JSON.stringify(ENTRY_SKIP_KEY)})||matchMedia("(display-mode: standalone)").matches||navigator.standalone)document.documentElement.setAttribute(${JSON.stringify(ENTRY_SKIPPED_ATTRIBUTE)},"")}catch(e){}`;

/** Running as the installed app (PWA). */
export function isInstalledApp(): boolean {
  return (
    window.matchMedia?.("(display-mode: standalone)").matches === true ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  );
}

type Conditions = {
  enabled: boolean;
  loggedIn: boolean;
  installedApp: boolean;
  country: string | null;
  siteCountries: readonly string[];
  onlyCountries?: readonly string[];
  skippedAt: string | null;
};

/**
 * SPEC §4: the site-entry warning shows once unless skipped; not in the installed app, not for
 * logged-in members; only when the site enables it and the visitor's country is one the site serves.
 */
export function shouldShowEntryWarning(c: Conditions): boolean {
  if (!c.enabled || c.loggedIn || c.installedApp || c.skippedAt) return false;
  if (!c.country || !c.siteCountries.includes(c.country)) return false;
  return !c.onlyCountries || c.onlyCountries.includes(c.country);
}

/** The adult-content warning on entering the site; closing it stores a skip timestamp. */
export function EntryWarning({ onlyCountries }: { onlyCountries?: readonly string[] }) {
  const { settings } = usePage();
  const { user } = useUser();
  const t = useT();
  const [skippedAt, skip] = useStoredTimestamp(ENTRY_SKIP_KEY);
  const hydrated = useHydrated();
  // Until the browser's storage is read, what the server knows decides (see ENTRY_SKIPPED_SCRIPT).
  const known = skippedAt !== NOT_KNOWN_YET;
  const open = shouldShowEntryWarning({
    enabled: settings.enable_site_entry_popup,
    loggedIn: user !== null,
    installedApp: known && isInstalledApp(),
    country: settings.geoip_country,
    siteCountries: settings.countries,
    ...(onlyCountries ? { onlyCountries } : {}),
    skippedAt: known ? skippedAt : null,
  });
  if (!open) return null;
  return (
    <div className="modal-backdrop entry-warning-backdrop">
      <div className="modal entry-warning" role="dialog" aria-modal="true" aria-labelledby="entry-warning-title">
        <h2 id="entry-warning-title">{t("entry_warning.title")}</h2>
        <p>{t("entry_warning.text", { site: settings.name })}</p>
        <div className="modal__actions">
          {/* Disabled until the page runs, so a press is never lost before hydration. */}
          <button type="button" className="button button--primary" onClick={skip} autoFocus disabled={!hydrated}>
            {t("entry_warning.enter")}
          </button>
          <a className="button button--ghost" href="about:blank">
            {t("entry_warning.leave")}
          </a>
        </div>
      </div>
    </div>
  );
}
