import { useState, type FormEvent } from "react";
import * as v from "valibot";
import type { OrderCreated } from "../../../shared/payments-api";
import { Iban, Mobile } from "../../../shared/direct-debit";
import { apiSend, ApiRequestError } from "../../page/api";
import { FormMessage } from "../../components/Form";
import { Link } from "../../components/Link";
import { LoginPrompt } from "../../components/LoginPrompt";
import { Title } from "../../components/Title";
import { usePage, useRouter, useT } from "../../page/page-context";
import { useUser } from "../../hooks/useUser";
import type { ScreenProps } from "../../page/page-state";
import { useOffer } from "./offer";

const FIELDS = ["account_holder", "iban", "street", "house_number", "postal_code", "city", "mobile"] as const;
type Field = (typeof FIELDS)[number];

/** /directdebit?bundle=ID: the account, the authorisation, then the SMS code (SPEC §3, §5). */
export default function DirectDebitScreen({ query }: ScreenProps) {
  const t = useT();
  const { user } = useUser();
  const { company } = usePage();
  const { pricing, money } = useOffer();
  const { navigate } = useRouter();
  const [values, setValues] = useState<Record<Field, string>>({
    account_holder: "",
    iban: "",
    street: "",
    house_number: "",
    postal_code: "",
    city: "",
    mobile: "",
  });
  const [authorised, setAuthorised] = useState(false);
  const [codeSent, setCodeSent] = useState(false);
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!user) return <LoginPrompt title={t("routes.directdebit")} text={t("payments.login_needed")} />;
  const bundle =
    pricing.bundles.find((b) => b.id === Number(query.get("bundle"))) ??
    pricing.bundles.find((b) => b.popular) ??
    pricing.bundles[0]!;
  if (!pricing.methods.includes("directdebit")) {
    return (
      <section className="credits">
        <Title text={t("routes.directdebit")} />
        <h1>{t("routes.directdebit")}</h1>
        <p className="notice notice--error">{t("payments.errors.method_not_offered")}</p>
      </section>
    );
  }

  const send = async (run: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await run();
    } catch (problem) {
      setError(problem instanceof ApiRequestError ? problem.body.message : t("errors.try_again_later"));
    }
    setBusy(false);
  };
  const requestCode = (event: FormEvent) => {
    event.preventDefault();
    if (!v.is(Iban, values.iban)) return setError(t("payments.dd.iban_invalid"));
    if (!v.is(Mobile, values.mobile)) return setError(t("payments.dd.mobile_invalid"));
    if (!authorised) return setError(t("payments.dd.authorise_required"));
    void send(async () => {
      await apiSend("POST", "/api/directdebit.php", { bundle_id: bundle.id, ...values, authorise: true });
      setCodeSent(true);
    });
  };
  const confirm = (event: FormEvent) => {
    event.preventDefault();
    void send(async () => {
      const { order } = await apiSend<OrderCreated>("POST", "/api/directdebit-confirm.php", {
        bundle_id: bundle.id,
        code,
      });
      navigate(`/credits/${bundle.id}/directdebit?order=${order.id}`);
    });
  };

  return (
    <section className="credits">
      <Title text={t("routes.directdebit")} />
      <h1>{t("routes.directdebit")}</h1>
      <p>{t("payments.bundle_line", { count: bundle.credits, price: money(bundle.amount) })}</p>
      {!codeSent ? (
        <form className="form" onSubmit={requestCode} noValidate>
          {FIELDS.map((field) => (
            <label key={field} className="field">
              <span className="field__label">{t(`payments.dd.${field}`)}</span>
              <input
                className="field__input"
                name={field}
                value={values[field]}
                onChange={(e) => setValues({ ...values, [field]: e.target.value })}
                required
                autoComplete={
                  field === "mobile"
                    ? "tel"
                    : field === "postal_code"
                      ? "postal-code"
                      : field === "city"
                        ? "address-level2"
                        : "off"
                }
                inputMode={field === "mobile" ? "tel" : undefined}
              />
            </label>
          ))}
          <label className="choice">
            <input type="checkbox" checked={authorised} onChange={(e) => setAuthorised(e.target.checked)} />{" "}
            {t("payments.dd.authorise", { company: company?.name ?? "", price: money(bundle.amount) })}
          </label>
          {error && <FormMessage text={error} />}
          <button type="submit" className="button button--primary" disabled={busy}>
            {t("payments.dd.send_code")}
          </button>
        </form>
      ) : (
        <form className="form" onSubmit={confirm}>
          <p>{t("payments.dd.code_sent", { mobile: values.mobile })}</p>
          <label className="field">
            <span className="field__label">{t("payments.dd.code")}</span>
            <input
              className="field__input"
              name="code"
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, "").slice(0, 6))}
              inputMode="numeric"
              autoComplete="one-time-code"
              required
            />
          </label>
          {error && <FormMessage text={error} />}
          <button type="submit" className="button button--primary" disabled={busy || code.length !== 6}>
            {t("payments.dd.confirm")}
          </button>
        </form>
      )}
      <Link href={`/credits/${bundle.id}`}>{t("payments.other_method")}</Link>
    </section>
  );
}
