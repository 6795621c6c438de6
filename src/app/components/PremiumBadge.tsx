import { useT } from "../page/page-context";

/** The premium badge (SPEC §6) beside a premium member's name. */
export function PremiumBadge() {
  const t = useT();
  return <span className="badge badge--premium">{t("payments.premium_badge")}</span>;
}
