import { useId, useState, type FormEvent } from "react";
import { isEmail } from "../../shared/account";
import {
  REPORT_DESCRIPTION_MIN,
  REPORT_SUBJECTS,
  type ReportBody,
  type ReportResponse,
  type ReportSubject,
} from "../../shared/reports";
import { apiSend } from "../page/api";
import { useT } from "../page/page-context";
import { useUser } from "../hooks/useUser";
import { FieldError, FormMessage, TextField, useApiForm } from "./Form";

const FIELDS = ["subject", "description", "email", "profile_id", "message_id"] as const;

/** A member typed as their number or a profile link (/members/12, /likes/m/12); null when it is neither. */
function profileIdOf(reference: string): number | null {
  const found = /^\s*(?:.*\/(?:members|likes\/m)\/)?([1-9][0-9]{0,9})\/?\s*$/.exec(reference);
  return found ? Number(found[1]) : null;
}

type Props = {
  /** The member the report is about, when the form is opened from their profile or chat. */
  about?: { id: number; name: string };
  messageId?: number;
  /** /complaints: the member may be typed in (starting from `initialReference`). */
  askReference?: boolean;
  initialReference?: string;
  onCancel?: () => void;
};

/**
 * A complaint or a report (POST /api/report.php): subject, description, and for a visitor the
 * address the confirmation goes to. After sending it says the report's number.
 */
export function ReportForm({ about, messageId, askReference = false, initialReference = "", onCancel }: Props) {
  const t = useT();
  const { user } = useUser();
  const id = useId();
  const form = useApiForm(FIELDS);
  const [subject, setSubject] = useState<ReportSubject | "">("");
  const [description, setDescription] = useState("");
  const [email, setEmail] = useState("");
  const [reference, setReference] = useState(initialReference);
  const [sent, setSent] = useState<number | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.busy) return;
    const problems: Record<string, string> = {};
    if (!subject) problems.subject = t("validation.required");
    if (description.trim().length < REPORT_DESCRIPTION_MIN)
      problems.description = t("reports.description_hint", { count: REPORT_DESCRIPTION_MIN });
    if (!user && !isEmail(email.trim())) problems.email = t("validation.email_invalid");
    const typed = askReference && reference.trim() ? profileIdOf(reference) : null;
    if (askReference && reference.trim() && typed === null) problems.profile_id = t("reports.errors.reference_invalid");
    if (!form.check(problems) || !subject) return;
    const profileId = about?.id ?? typed;
    const body: ReportBody = {
      subject,
      description: description.trim(),
      ...(user ? {} : { email: email.trim() }),
      ...(profileId ? { profile_id: profileId } : {}),
      ...(messageId ? { message_id: messageId } : {}),
    };
    void form.run(async () => {
      const answer = await apiSend<ReportResponse>("POST", "/api/report.php", body);
      setSent(answer.report.id);
    });
  };

  if (sent !== null)
    return (
      <>
        <FormMessage tone="success" text={t("reports.sent", { id: sent })} />
        {onCancel && (
          <button type="button" className="button button--ghost" onClick={onCancel}>
            {t("reports.close")}
          </button>
        )}
      </>
    );

  return (
    <form className="form report-form" onSubmit={submit} noValidate>
      <FormMessage text={form.errors.message} />
      {about && <p className="report-form__about">{t("reports.reference_member", { name: about.name })}</p>}
      {messageId !== undefined && (
        <p className="report-form__about">{t("reports.reference_message", { id: messageId })}</p>
      )}
      <div className={form.errors.fields.subject ? "field field--error" : "field"}>
        <label htmlFor={`${id}-subject`} className="field__label">
          {t("reports.subject")}
        </label>
        <select
          id={`${id}-subject`}
          className="field__input"
          value={subject}
          onChange={(e) => setSubject(e.target.value as ReportSubject)}
        >
          <option value="" disabled>
            {t("complete_signup.choose")}
          </option>
          {REPORT_SUBJECTS.map((s) => (
            <option key={s} value={s}>
              {t(`reports.subjects.${s}`)}
            </option>
          ))}
        </select>
        <FieldError text={form.errors.fields.subject} />
      </div>
      <div className={form.errors.fields.description ? "field field--error" : "field"}>
        <label htmlFor={`${id}-description`} className="field__label">
          {t("reports.description")}
        </label>
        <textarea
          id={`${id}-description`}
          className="field__input"
          rows={5}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          aria-describedby={`${id}-description-hint`}
        />
        <p id={`${id}-description-hint`} className="field__hint">
          {t("reports.description_hint", { count: REPORT_DESCRIPTION_MIN })}
        </p>
        <FieldError text={form.errors.fields.description} />
      </div>
      {!user && (
        <TextField
          label={t("reports.email")}
          type="email"
          inputMode="email"
          autoComplete="email"
          name="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={form.errors.fields.email}
        />
      )}
      {askReference && !about && messageId === undefined && (
        <TextField
          label={t("reports.reference")}
          hint={t("reports.reference_hint", { example: "/members/12" })}
          name="reference"
          value={reference}
          onChange={(e) => setReference(e.target.value)}
          error={form.errors.fields.profile_id ?? form.errors.fields.message_id}
        />
      )}
      <div className="report-form__actions">
        <button type="submit" className="button button--primary" disabled={form.busy}>
          {form.busy ? t("reports.sending") : t("reports.send")}
        </button>
        {onCancel && (
          <button type="button" className="button button--ghost" onClick={onCancel}>
            {t("reports.cancel")}
          </button>
        )}
      </div>
    </form>
  );
}
