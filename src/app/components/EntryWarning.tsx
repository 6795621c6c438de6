import { useEffect, useState } from "react";
import { usePage, useT } from "../context";

export const ENTRY_SKIP_KEY = "site-entry-skip";

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
  const { settings, user } = usePage();
  const t = useT();
  const [open, setOpen] = useState(false);

  useEffect(() => {
    let skippedAt: string | null = null;
    try {
      skippedAt = localStorage.getItem(ENTRY_SKIP_KEY);
    } catch {
      skippedAt = null;
    }
    setOpen(
      shouldShowEntryWarning({
        enabled: settings.enable_site_entry_popup,
        loggedIn: user !== null,
        installedApp: isInstalledApp(),
        country: settings.geoip_country,
        siteCountries: settings.countries,
        ...(onlyCountries ? { onlyCountries } : {}),
        skippedAt,
      }),
    );
  }, [settings, user, onlyCountries]);

  if (!open) return null;
  const enter = () => {
    try {
      localStorage.setItem(ENTRY_SKIP_KEY, String(Date.now()));
    } catch {
      // Without storage the warning simply shows again next time.
    }
    setOpen(false);
  };
  return (
    <div className="modal-backdrop">
      <div className="modal entry-warning" role="dialog" aria-modal="true" aria-labelledby="entry-warning-title">
        <h2 id="entry-warning-title">{t("entry_warning.title")}</h2>
        <p>{t("entry_warning.text", { site: settings.name })}</p>
        <div className="modal__actions">
          <button type="button" className="button button--primary" onClick={enter} autoFocus>
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
