import { useId } from "react";
import {
  ANONYMOUS_CATEGORY,
  NOTICE_CATEGORY_IDS,
  NOTIFIER_NAME_MAX,
  REPORT_LAW,
  type NoticeCategory,
} from "../../shared/reports";
import { useT } from "../page/page-context";
import { FieldError, TextField } from "./Form";

export type NoticeDraft = {
  category: NoticeCategory | "";
  law: string;
  goodFaith: boolean;
  name: string;
  anonymous: boolean;
};

type Props = {
  draft: NoticeDraft;
  change: (patch: Partial<NoticeDraft>) => void;
  /** Illegal content: the law concerned is asked. */
  illegal: boolean;
  /** A visitor gives their name (a member's account gives it). */
  askName: boolean;
  errors: Record<string, string | undefined>;
};

/**
 * What a notice about content adds to a report (DSA Art. 16(2), docs/decisions/0062): the category,
 * the law concerned for illegal content, a visitor's name (or, for child sexual abuse material only,
 * no name at all), and the good-faith statement.
 */
export function NoticeFields({ draft, change, illegal, askName, errors }: Props) {
  const t = useT();
  const id = useId();
  return (
    <>
      <div className={errors.category ? "field field--error" : "field"}>
        <label htmlFor={`${id}-category`} className="field__label">
          {t("reports.category")}
        </label>
        <select
          id={`${id}-category`}
          name="category"
          className="field__input"
          value={draft.category}
          onChange={(e) => {
            const category = e.target.value as NoticeCategory;
            change({ category, anonymous: category === ANONYMOUS_CATEGORY && draft.anonymous });
          }}
        >
          <option value="" disabled>
            {t("complete_signup.choose")}
          </option>
          {NOTICE_CATEGORY_IDS.map((c) => (
            <option key={c} value={c}>
              {t(`reports.categories.${c}`)}
            </option>
          ))}
        </select>
        <FieldError text={errors.category} />
      </div>
      {illegal && (
        <TextField
          label={t("reports.law")}
          hint={t("reports.law_hint")}
          name="law"
          maxLength={REPORT_LAW.max}
          value={draft.law}
          onChange={(e) => change({ law: e.target.value })}
          error={errors.law}
        />
      )}
      {askName && draft.category === ANONYMOUS_CATEGORY && (
        <label className="choice">
          <input
            type="checkbox"
            name="anonymous"
            checked={draft.anonymous}
            onChange={(e) => change({ anonymous: e.target.checked })}
          />
          <span>{t("reports.anonymous")}</span>
        </label>
      )}
      {askName && !draft.anonymous && (
        <TextField
          label={t("reports.name")}
          name="name"
          autoComplete="name"
          maxLength={NOTIFIER_NAME_MAX}
          value={draft.name}
          onChange={(e) => change({ name: e.target.value })}
          error={errors.name}
        />
      )}
      <div className={errors.good_faith ? "field field--error" : "field"}>
        <label className="choice">
          <input
            type="checkbox"
            name="good_faith"
            checked={draft.goodFaith}
            onChange={(e) => change({ goodFaith: e.target.checked })}
          />
          <span>{t("reports.good_faith")}</span>
        </label>
        <FieldError text={errors.good_faith} />
      </div>
    </>
  );
}
