import type { ChatResponse } from "../../../shared/chat";
import { Link } from "../../components/Link";
import { useT } from "../../page/page-context";

type AlertProps = {
  name: string;
  cost: number;
  credits: number;
  paid: boolean;
  refused: boolean;
  minimum: ChatResponse["costs"]["minimum_message_costs"];
  locale: string;
};

/**
 * One compact notice above the composer: the credit alert when the next message costs more than the
 * member has, otherwise the premium alert for free members (never both: the composer keeps its room).
 */
export function ChatAlerts({ name, cost, credits, paid, refused, minimum, locale }: AlertProps) {
  const t = useT();
  const low = refused || credits < cost;
  if (!low && paid) return null;
  const price = minimum ? formatPrice(minimum.costs, minimum.currency, locale) : null;
  return (
    <div className="chat-alerts">
      {low && (
        <div className="alert alert--warning" role="status">
          <p>{t("errors.not_enough_credits", { name })}</p>
          <Link href="/credits" className="button button--primary button--small">
            {t("chat.buy_credits")}
          </Link>
        </div>
      )}
      {!low && !paid && (
        <div className="alert alert--info" role="status">
          <p>
            {t("chat.premium_alert")}
            {price && ` ${t("chat.premium_price", { price })}`}
          </p>
          <Link href="/premium" className="button button--secondary button--small">
            {t("nav.get_premium")}
          </Link>
        </div>
      )}
    </div>
  );
}

function formatPrice(amount: number, currency: string, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
}
