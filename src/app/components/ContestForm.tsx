import { useId, useState, type FormEvent } from "react";
import type { ContestBody } from "../../shared/reports";
import { apiSend } from "../page/api";
import { useT } from "../page/page-context";
import { FieldError, FormMessage, useApiForm } from "./Form";

const TEXT_MIN = 10;

/**
 * The notifier contests the dismissal of their report (POST /api/report_contest.php), opened from
 * the link of the outcome mail: someone who did not dismiss it reviews it (docs/decisions/0062).
 */
export function ContestForm({ reportId, contestKey }: { reportId: number; contestKey: string | null }) {
  const t = useT();
  const id = useId();
  const form = useApiForm(["text", "report_id", "key"]);
  const [text, setText] = useState("");
  const [sent, setSent] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.busy) return;
    if (!form.check(text.trim().length < TEXT_MIN ? { text: t("reports.contest.hint", { count: TEXT_MIN }) } : {}))
      return;
    const body: ContestBody = { report_id: reportId, text: text.trim(), ...(contestKey ? { key: contestKey } : {}) };
    void form.run(async () => {
      await apiSend("POST", "/api/report_contest.php", body);
      setSent(true);
    });
  };

  if (sent) return <FormMessage tone="success" text={t("reports.contest.sent")} />;
  return (
    <form className="form report-form" onSubmit={submit} noValidate>
      <p>{t("reports.contest.intro", { id: reportId })}</p>
      <FormMessage text={form.errors.message} />
      <div className={form.errors.fields.text ? "field field--error" : "field"}>
        <label htmlFor={`${id}-text`} className="field__label">
          {t("reports.contest.label")}
        </label>
        <textarea
          id={`${id}-text`}
          name="text"
          className="field__input"
          rows={5}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <FieldError text={form.errors.fields.text} />
      </div>
      <div className="report-form__actions">
        <button type="submit" className="button button--primary" disabled={form.busy}>
          {form.busy ? t("reports.sending") : t("reports.contest.send")}
        </button>
      </div>
    </form>
  );
}
