import { useId, useState, type FormEvent } from "react";
import { comparablePhoneNumber, isSupportPhone } from "../../../shared/legal";
import { useT } from "../../page/page-context";

/**
 * "Is this our number?" on the customer service page: a number typed with dashes or spaces matches
 * the support number (SPEC §9), so a member can tell a real call from one in our name.
 */
export function PhoneCheck({ phone }: { phone: string }) {
  const t = useT();
  const id = useId();
  const [typed, setTyped] = useState("");
  const [answer, setAnswer] = useState<"ours" | "not_ours" | "empty" | null>(null);

  const check = (event: FormEvent) => {
    event.preventDefault();
    setAnswer(comparablePhoneNumber(typed) === "" ? "empty" : isSupportPhone(typed, phone) ? "ours" : "not_ours");
  };

  return (
    <section className="phone-check" id="phone-check">
      <h2>{t("legal.phone_check.heading")}</h2>
      <p>{t("legal.phone_check.text")}</p>
      <form className="phone-check__form" onSubmit={check} noValidate>
        <label htmlFor={id} className="field__label">
          {t("legal.phone_check.label")}
        </label>
        <input
          id={id}
          className="field__input"
          type="tel"
          inputMode="tel"
          autoComplete="off"
          value={typed}
          onChange={(e) => {
            setTyped(e.target.value);
            setAnswer(null);
          }}
        />
        <button type="submit" className="button button--primary">
          {t("legal.phone_check.button")}
        </button>
      </form>
      {answer && (
        <p
          className={answer === "ours" ? "form-message form-message--success" : "form-message form-message--error"}
          role="status"
        >
          {t(`legal.phone_check.${answer}`, { phone })}
        </p>
      )}
    </section>
  );
}
