import { useId, useState, type FormEvent } from "react";
import { isEmail } from "../../shared/account";
import {
  basisOf,
  isSupportSubject,
  REPORT_DESCRIPTION_MIN,
  REPORT_LAW,
  REPORT_SUBJECTS,
  reportLocation,
  SUBJECT_CATEGORY,
  type ReportBody,
  type ReportResponse,
  type ReportSubject,
} from "../../shared/reports";
import { apiSend } from "../page/api";
import { useT } from "../page/page-context";
import { useUser } from "../hooks/useUser";
import { FieldError, FormMessage, TextField, useApiForm } from "./Form";
import { NoticeFields, type NoticeDraft } from "./NoticeFields";

const FIELDS = [
  "subject",
  "description",
  "email",
  "name",
  "anonymous",
  "category",
  "law",
  "good_faith",
  "profile_id",
  "message_id",
  "photo_id",
] as const;
const CONTENT_SUBJECTS = REPORT_SUBJECTS.filter((s) => !isSupportSubject(s));
const SUPPORT_SUBJECTS = REPORT_SUBJECTS.filter(isSupportSubject);

/** A member typed as their number or a profile link (/members/12, /likes/m/12); null when it is neither. */
function profileIdOf(reference: string): number | null {
  const found = /^\s*(?:.*\/(?:members|likes\/m)\/)?([1-9][0-9]{0,9})\/?\s*$/.exec(reference);
  return found ? Number(found[1]) : null;
}

type Props = {
  /** The member the report is about, when the form is opened from their profile, photo or chat. */
  about?: { id: number; name: string };
  messageId?: number;
  photoId?: number;
  /** /complaints: the member may be typed in (starting from `initialReference`), and questions for support asked. */
  askReference?: boolean;
  initialReference?: string;
  onCancel?: () => void;
};

/**
 * A complaint, a question or a report (POST /api/report.php). A report about content is a notice
 * (DSA Art. 16(2)): where (filled in), what and why, the category, for illegal content the law, the
 * notifier's name and address (a member's account gives them) and the good-faith statement. A
 * question about billing, the account or personal data goes to customer service.
 */
export function ReportForm({
  about,
  messageId,
  photoId,
  askReference = false,
  initialReference = "",
  onCancel,
}: Props) {
  const t = useT();
  const { user } = useUser();
  const id = useId();
  const form = useApiForm(FIELDS);
  const [subject, setSubject] = useState<ReportSubject | "">("");
  const [description, setDescription] = useState("");
  const [email, setEmail] = useState("");
  const [reference, setReference] = useState(initialReference);
  const [notice, setNotice] = useState<NoticeDraft>({
    category: "",
    law: "",
    goodFaith: false,
    name: "",
    anonymous: false,
  });
  const [sent, setSent] = useState<ReportResponse["report"] | null>(null);
  const support = subject !== "" && isSupportSubject(subject);
  const illegal = subject !== "" && basisOf(subject) === "illegal";
  const anonymous = !support && notice.anonymous;
  const location = about ? reportLocation("", { profileId: about.id, messageId, photoId }) : null;

  const chooseSubject = (next: ReportSubject) => {
    setSubject(next);
    const suggested = SUBJECT_CATEGORY[next];
    if (suggested && notice.category === "") setNotice((n) => ({ ...n, category: suggested }));
  };

  const problems = (): Record<string, string> => {
    const found: Record<string, string> = {};
    if (!subject) found.subject = t("validation.required");
    if (description.trim().length < REPORT_DESCRIPTION_MIN)
      found.description = t("reports.description_hint", { count: REPORT_DESCRIPTION_MIN });
    if (!user && !anonymous && !isEmail(email.trim())) found.email = t("validation.email_invalid");
    if (askReference && reference.trim() && profileIdOf(reference) === null)
      found.profile_id = t("reports.errors.reference_invalid");
    if (support) return found;
    if (!notice.category) found.category = t("reports.errors.category_required");
    if (illegal && notice.law.trim().length < REPORT_LAW.min) found.law = t("reports.errors.law_required");
    if (!user && !anonymous && !notice.name.trim()) found.name = t("reports.errors.name_required");
    if (!notice.goodFaith) found.good_faith = t("reports.errors.good_faith_required");
    return found;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.busy || !form.check(problems()) || !subject) return;
    const profileId = about?.id ?? (askReference && reference.trim() ? profileIdOf(reference) : null);
    const body: ReportBody = {
      subject,
      description: description.trim(),
      ...(!user && email.trim() ? { email: email.trim() } : {}),
      ...(profileId ? { profile_id: profileId } : {}),
      ...(messageId ? { message_id: messageId } : {}),
      ...(photoId ? { photo_id: photoId } : {}),
      ...(support
        ? {}
        : {
            category: notice.category || undefined,
            good_faith: notice.goodFaith,
            ...(illegal ? { law: notice.law.trim() } : {}),
            ...(anonymous ? { anonymous: true } : !user ? { name: notice.name.trim() } : {}),
          }),
    };
    void form.run(async () => {
      const answer = await apiSend<ReportResponse>("POST", "/api/report.php", body);
      setSent(answer.report);
    });
  };

  if (sent !== null)
    return (
      <>
        <FormMessage
          tone="success"
          text={t(
            sent.queue === "support"
              ? "reports.sent_support"
              : anonymous && !email.trim()
                ? "reports.sent_anonymous"
                : "reports.sent",
            { id: sent.id },
          )}
        />
        {onCancel && (
          <button type="button" className="button button--ghost" onClick={onCancel}>
            {t("reports.close")}
          </button>
        )}
      </>
    );

  const option = (s: ReportSubject) => (
    <option key={s} value={s}>
      {t(`reports.subjects.${s}`)}
    </option>
  );
  return (
    <form className="form report-form" onSubmit={submit} noValidate>
      <FormMessage text={form.errors.message} />
      {about && (
        <p className="report-form__about">
          {messageId !== undefined
            ? t("reports.reference_message_of", { name: about.name })
            : photoId !== undefined
              ? t("reports.reference_photo", { name: about.name })
              : t("reports.reference_member", { name: about.name })}
        </p>
      )}
      {!about && messageId !== undefined && (
        <p className="report-form__about">{t("reports.reference_message", { id: messageId })}</p>
      )}
      {location && (
        <p className="report-form__location">
          {t("reports.location")}: <code>{location}</code>
        </p>
      )}
      <div className={form.errors.fields.subject ? "field field--error" : "field"}>
        <label htmlFor={`${id}-subject`} className="field__label">
          {t("reports.subject")}
        </label>
        <select
          id={`${id}-subject`}
          name="subject"
          className="field__input"
          value={subject}
          onChange={(e) => chooseSubject(e.target.value as ReportSubject)}
        >
          <option value="" disabled>
            {t("complete_signup.choose")}
          </option>
          {askReference ? (
            <>
              <optgroup label={t("reports.group_content")}>{CONTENT_SUBJECTS.map(option)}</optgroup>
              <optgroup label={t("reports.group_support")}>{SUPPORT_SUBJECTS.map(option)}</optgroup>
            </>
          ) : (
            CONTENT_SUBJECTS.map(option)
          )}
        </select>
        <FieldError text={form.errors.fields.subject} />
        {support && <p className="field__hint">{t("reports.support_hint")}</p>}
      </div>
      <div className={form.errors.fields.description ? "field field--error" : "field"}>
        <label htmlFor={`${id}-description`} className="field__label">
          {t(support ? "reports.question" : "reports.description")}
        </label>
        <textarea
          id={`${id}-description`}
          name="description"
          className="field__input"
          rows={4}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          aria-describedby={`${id}-description-hint`}
        />
        <p id={`${id}-description-hint`} className="field__hint">
          {t(support ? "reports.question_hint" : "reports.description_hint", { count: REPORT_DESCRIPTION_MIN })}
        </p>
        <FieldError text={form.errors.fields.description} />
      </div>
      {askReference && !about && messageId === undefined && !support && (
        <TextField
          label={t("reports.reference")}
          hint={t("reports.reference_hint", { example: "/members/12" })}
          name="reference"
          value={reference}
          onChange={(e) => setReference(e.target.value)}
          error={form.errors.fields.profile_id ?? form.errors.fields.message_id}
        />
      )}
      {!support && subject !== "" && (
        <NoticeFields
          draft={notice}
          change={(patch) => setNotice((n) => ({ ...n, ...patch }))}
          illegal={illegal}
          askName={!user}
          errors={form.errors.fields}
        />
      )}
      {!user && !anonymous && (
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
      {user && !support && (
        <p className="field__hint">{t("reports.as_member", { name: user.profile.name, email: user.email })}</p>
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
