import { Link } from "../../components/Link";
import { Title } from "../../components/Title";
import { useT } from "../../page/page-context";
import { useUser } from "../../hooks/useUser";
import { useOffer } from "./offer";

/** /premium: what premium gives (SPEC §1, §6) and the way to it: any bundle of credits. */
export default function PremiumScreen() {
  const t = useT();
  const { user } = useUser();
  const { pricing, money } = useOffer();
  const cheapest = Math.min(...pricing.bundles.map((b) => b.amount));
  return (
    <section className="credits premium">
      <Title text={t("routes.premium")} />
      <h1>{user?.paid_user ? t("payments.premium_yours") : t("routes.premium")}</h1>
      <ul className="premium__benefits">
        <li>{t("payments.benefit_photos")}</li>
        <li>{t("payments.benefit_uploads")}</li>
        <li>{t("payments.benefit_badge")}</li>
        <li>{t("payments.benefit_messages")}</li>
      </ul>
      <p>{t("payments.premium_how", { price: money(cheapest) })}</p>
      <p className="premium__note">{t("payments.no_subscription")}</p>
      <Link href={user ? "/credits" : "/signup"} className="button button--primary">
        {user ? t("payments.buy_credits") : t("nav.signup")}
      </Link>
    </section>
  );
}
