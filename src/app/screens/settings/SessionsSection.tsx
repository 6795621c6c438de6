import { useState } from "react";
import useSWR from "swr";
import type { SessionsResponse, SessionView } from "../../../shared/sessions";
import { apiSend, type ApiRequestError } from "../../page/api";
import { FormMessage, formErrors } from "../../components/Form";
import { useMinute } from "../../hooks/useMinute";
import { usePage, useT } from "../../page/page-context";
import { SESSIONS_KEY } from "../../page/page-data";

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
];

/** "now", "5 minutes ago", "yesterday" in the page's language. */
function ago(seconds: number, nowMs: number, locale: string): string {
  const elapsed = Math.max(0, nowMs / 1000 - seconds);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  for (const [unit, size] of UNITS) if (elapsed >= size) return format.format(-Math.floor(elapsed / size), unit);
  return format.format(0, "second");
}

const dateTime = (seconds: number, locale: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(seconds * 1000);

/**
 * The member's logged-in devices (issue 13.7): the device, when it logged in and was last used,
 * this device marked. Any other one can be logged out, or all others at once. Times are shown in the
 * browser's own time zone, so they appear once the page runs.
 */
export function SessionsSection() {
  const t = useT();
  const { locale } = usePage();
  const now = useMinute();
  const { data, mutate } = useSWR<SessionsResponse, ApiRequestError>(SESSIONS_KEY);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string | null; tone: "error" | "success" } | null>(null);
  const sessions = data?.sessions ?? [];
  const others = sessions.filter((s) => !s.current);

  const end = async (body: { id: string } | { others: true }) => {
    setBusy(true);
    setMessage(null);
    try {
      await apiSend("DELETE", SESSIONS_KEY, body);
      if ("others" in body) setMessage({ text: t("sessions.others_ended"), tone: "success" });
    } catch (failure) {
      setMessage({ text: formErrors(failure, [], t).message, tone: "error" });
    } finally {
      await mutate();
      setBusy(false);
    }
  };

  const item = (session: SessionView) => (
    <li key={session.id} className="sessions__item" data-current={session.current || undefined}>
      <div className="sessions__device">
        <strong id={`session-${session.id}`}>{session.device}</strong>
        {session.current && <span className="sessions__current">{t("sessions.this_device")}</span>}
      </div>
      <div className="settings__hint">
        {now > 0 && (
          <>
            <span>{t("sessions.started", { when: dateTime(session.created_at, locale) })}</span>
            <span>
              {session.current
                ? t("sessions.active_now")
                : t("sessions.last_used", { when: ago(session.last_used_at, now, locale) })}
            </span>
          </>
        )}
      </div>
      {!session.current && (
        <button
          type="button"
          className="button button--ghost"
          disabled={busy}
          aria-describedby={`session-${session.id}`}
          onClick={() => void end({ id: session.id })}
        >
          {t("sessions.end")}
        </button>
      )}
    </li>
  );

  return (
    <section className="settings__section" aria-labelledby="settings-sessions">
      <h2 id="settings-sessions">{t("sessions.title")}</h2>
      <p className="settings__hint">{t("sessions.text")}</p>
      <ul className="sessions">{sessions.map(item)}</ul>
      {others.length > 0 ? (
        <button
          type="button"
          className="button button--ghost button--danger"
          disabled={busy}
          onClick={() => void end({ others: true })}
        >
          {t("sessions.end_others")}
        </button>
      ) : (
        data && <p className="settings__hint">{t("sessions.none_other")}</p>
      )}
      <FormMessage text={message?.text} tone={message?.tone} />
    </section>
  );
}
