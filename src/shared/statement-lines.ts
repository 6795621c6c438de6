/**
 * A statement of reasons as lines of label and text (DSA Art. 17(3), docs/decisions/0061): the
 * measure, what it covers and where, from when until when (or until lifted, or lifted early), the
 * facts chosen in the member's language and the moderator's own words marked as such, notice or own
 * initiative, automated means, the basis (the law, or the terms' section) and the redress. The
 * decision page and the mail both draw it from here, so they say the same.
 */
import type { Translate } from "./translator";
import { MEASURE_OF, TIMED_MEASURES, type Statement } from "./moderation";

export type StatementLine = { id: string; label: string; text: string };

function scopeText(t: Translate, s: Statement): string {
  const parts: string[] = [];
  const photos = s.scope.photo_ids?.length ?? 0;
  if (photos === 1) parts.push(t("moderation.statement.scope_photo"));
  if (photos > 1) parts.push(t("moderation.statement.scope_photos"));
  if (s.scope.text) parts.push(t("moderation.statement.scope_text"));
  if (s.scope.message_ids?.length) parts.push(t("moderation.statement.scope_message"));
  const measure = s.measure ?? MEASURE_OF[s.outcome];
  if (s.scope.account || parts.length === 0) {
    const whole =
      measure === "restrict_chat"
        ? "scope_chat"
        : measure === "restrict_search"
          ? "scope_search"
          : measure === "suspend"
            ? "scope_suspend"
            : measure === "disable" || measure === "delete"
              ? "scope_account"
              : measure === "refuse_verification"
                ? "scope_selfie"
                : "scope_none";
    parts.push(t(`moderation.statement.${whole}`));
  }
  return parts.join(" · ");
}

function durationText(t: Translate, s: Statement, date: (seconds: number) => string, now: number): string | null {
  const start = s.starts_at ?? s.created_at;
  const measure = s.measure ?? MEASURE_OF[s.outcome];
  if (measure === "none" || measure === "warn" || measure === "refuse_verification") return null;
  if (s.lifted_at !== null) return t("moderation.statement.lifted", { start: date(start), date: date(s.lifted_at) });
  if (!TIMED_MEASURES.includes(measure)) return t("moderation.statement.lasting", { start: date(start) });
  if (s.ends_at === null) return t("moderation.statement.until_lifted", { start: date(start) });
  return t(s.ends_at <= now ? "moderation.statement.ended" : "moderation.statement.until", {
    start: date(start),
    end: date(s.ends_at),
  });
}

function basisText(t: Translate, s: Statement): string | null {
  if (s.basis === "illegal") return t("moderation.statement.basis_illegal", { law: s.legal_ground ?? "" });
  if (!s.ground) return null;
  // The ground's rule names the section of the terms and conditions it rests on.
  return t(`moderation.grounds.${s.ground}.rule`);
}

/** The lines of a statement; `redress`: with the appeal and the other remedies (the mail; the page has its own section). */
export function statementLines(
  t: Translate,
  s: Statement,
  date: (seconds: number) => string,
  now: number,
  redress: boolean,
): StatementLine[] {
  const sites = s.sites.filter((site) => site.trim() !== "");
  const lines: (StatementLine | null)[] = [
    { id: "measure", label: t("moderation.statement.measure"), text: t(`moderation.outcomes.${s.outcome}`) },
    { id: "scope", label: t("moderation.statement.scope"), text: scopeText(t, s) },
    sites.length > 0
      ? {
          id: "sites",
          label: t("moderation.statement.sites"),
          text: t("moderation.statement.sites_text", { sites: sites.join(", ") }),
        }
      : null,
    line("duration", t("moderation.statement.duration"), durationText(t, s, date, now)),
    line("facts", t("moderation.page.facts"), s.fact_text),
    line("own_words", t("moderation.statement.own_words"), s.facts),
    {
      id: "initiative",
      label: t("moderation.statement.initiative"),
      text: t(`moderation.statement.initiatives.${s.initiative}`),
    },
    {
      id: "automated",
      label: t("moderation.statement.automated"),
      text: t(s.detection_automated ? "moderation.statement.detection_yes" : "moderation.page.automated_no"),
    },
    line("basis", t("moderation.statement.basis"), basisText(t, s)),
  ];
  // A decision that restricts nothing (a warning) has nothing to appeal and no redress to name.
  if (redress && s.restricts) {
    const appeal =
      s.appeal_until !== null
        ? t("moderation.statement.redress_appeal", { date: date(s.appeal_until) })
        : t("moderation.page.no_appeal");
    const others = s.out_of_court
      ? t("moderation.page.other_remedies_body", s.out_of_court)
      : t("moderation.page.other_remedies");
    lines.push({
      id: "redress",
      label: t("moderation.statement.redress"),
      text: `${appeal} ${others}`,
    });
  }
  return lines.filter((l): l is StatementLine => l !== null);
}

const line = (id: string, label: string, text: string | null): StatementLine | null =>
  text ? { id, label, text } : null;
