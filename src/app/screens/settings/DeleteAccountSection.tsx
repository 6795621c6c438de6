import { useState, type FormEvent } from "react";
import { DeleteBody, REACTIVATION_DAYS } from "../../../shared/account";
import { apiSend } from "../../page/api";
import { FormMessage, TextField, formErrors, useApiForm, useFormFields } from "../../components/Form";
import { Link } from "../../components/Link";
import { usePage, useRouter, useT } from "../../page/page-context";
import { useSignOut } from "../../hooks/useSignOut";
import { holdMemberChannel } from "../../hooks/useMemberChannel";

const FIELDS = Object.keys(DeleteBody.entries);
const REASON_MAX = 500;

type Stage = "idle" | "offer" | "confirm";
type Discount = { code: string; percentage: number };

/**
 * Delete account with a retention offer (SPEC §2): first "stay and get n% off" (the company's
 * delete_discount), then the password and an optional reason. The account is pending deletion for
 * 14 days; the session ends and the member lands on /account-deleted.
 */
export function DeleteAccountSection() {
  const t = useT();
  const { company } = usePage();
  const { navigate } = useRouter();
  const signOut = useSignOut();
  const form = useApiForm(FIELDS);
  const [stage, setStage] = useState<Stage>("idle");
  const { values, set, bind } = useFormFields(form, { password: "", reason: "" });
  const [discount, setDiscount] = useState<Discount | null>(null);
  const [offerBusy, setOfferBusy] = useState(false);
  const [offerError, setOfferError] = useState<string | null>(null);
  const percentage = company?.delete_discount ?? 0;

  const start = () => setStage(percentage > 0 && !discount ? "offer" : "confirm");

  const accept = async () => {
    setOfferBusy(true);
    setOfferError(null);
    try {
      const answer = await apiSend<{ discount: Discount }>("POST", "/api/retention.php");
      setDiscount(answer.discount);
      setStage("idle");
    } catch (error) {
      setOfferError(formErrors(error, [], t).message);
    } finally {
      setOfferBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.busy) return;
    const { password } = values;
    const reason = values.reason.trim();
    if (!form.check(password ? {} : { password: t("validation.required") })) return;
    void form.run(async () => {
      const release = holdMemberChannel();
      try {
        await apiSend("DELETE", "/api/user.php", { password, ...(reason ? { reason } : {}) });
      } catch (error) {
        release();
        throw error;
      }
      // The next screen first, so this one never shows its visitor state in between.
      await navigate("/account-deleted");
      await signOut();
    });
  };

  return (
    <section className="settings__section settings__section--danger" aria-labelledby="settings-delete">
      <h2 id="settings-delete">{t("settings.delete.title")}</h2>
      {discount && (
        <div className="form-message form-message--success" role="status">
          <p>{t("settings.offer.thanks")}</p>
          <p>
            {t("settings.offer.code", { percentage: discount.percentage })}{" "}
            <strong className="discount-code">{discount.code}</strong>
          </p>
          <Link href="/credits" className="button button--primary">
            {t("nav.credits")}
          </Link>
        </div>
      )}
      {stage === "idle" && (
        <>
          <p className="settings__hint">{t("settings.delete.text", { count: REACTIVATION_DAYS })}</p>
          <button type="button" className="button button--ghost button--danger" onClick={start}>
            {t("settings.delete.start")}
          </button>
        </>
      )}
      {stage === "offer" && (
        <div className="retention-offer">
          <h3>{t("settings.offer.title")}</h3>
          <p className="retention-offer__text">{t("settings.offer.text", { percentage })}</p>
          <FormMessage text={offerError} />
          <div className="form__actions">
            <button type="button" className="button button--primary" disabled={offerBusy} onClick={() => void accept()}>
              {t("settings.offer.accept", { percentage })}
            </button>
            <button
              type="button"
              className="button button--ghost"
              disabled={offerBusy}
              onClick={() => setStage("confirm")}
            >
              {t("settings.offer.decline")}
            </button>
          </div>
        </div>
      )}
      {stage === "confirm" && (
        <form className="form" onSubmit={submit} noValidate>
          <p>{t("settings.delete.confirm_text", { count: REACTIVATION_DAYS })}</p>
          <FormMessage text={form.errors.message} />
          <TextField
            label={t("settings.current_password")}
            type="password"
            autoComplete="current-password"
            {...bind("password")}
          />
          <div className="field">
            <label className="field__label" htmlFor="delete-reason">
              {t("settings.delete.reason")}
            </label>
            <textarea
              id="delete-reason"
              className="field__input field__textarea"
              name="reason"
              rows={3}
              maxLength={REASON_MAX}
              value={values.reason}
              onChange={(e) => set("reason", e.target.value)}
            />
          </div>
          <div className="form__actions">
            <button type="submit" className="button button--danger" disabled={form.busy}>
              {t("settings.delete.submit")}
            </button>
            <button
              type="button"
              className="button button--ghost"
              disabled={form.busy}
              onClick={() => setStage("idle")}
            >
              {t("settings.delete.cancel")}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
