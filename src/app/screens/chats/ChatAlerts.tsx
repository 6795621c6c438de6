import type { ChatResponse } from "../../../shared/chat";
import { formatMoney } from "../../../shared/payments";
import { moneyOfCredits } from "../../../shared/send-costs";
import { Link } from "../../components/Link";
import { useT } from "../../page/page-context";
import { CHAT_PREMIUM_ALERT_KEY } from "../../../shared/browser-storage";
import { useStoredTimestamp } from "../../hooks/useStoredTimestamp";

type AlertProps = {
  name: string;
  cost: number;
  credits: number;
  paid: boolean;
  refused: boolean;
  minimum: ChatResponse["costs"]["minimum_message_costs"];
  /** A paid message's credits and what a credit is worth to the member. */
  messageCredits: number;
  value: ChatResponse["costs"]["credit_value"];
  locale: string;
};

/**
 * One compact notice above the composer: the credit alert when the next message costs more than the
 * member has, otherwise the premium alert for free members (never both: the composer keeps its room).
 */
export function ChatAlerts({ name, cost, credits, paid, refused, minimum, messageCredits, value, locale }: AlertProps) {
  const t = useT();
  // The premium alert is small and can be put away for good (docs/decisions/0064); the credit alert cannot.
  const [dismissed, dismiss] = useStoredTimestamp(CHAT_PREMIUM_ALERT_KEY);
  const low = refused || credits < cost;
  if (!low && (paid || dismissed !== null)) return null;
  // The price a message costs this member, in money, as every other price of the chat says it
  // (docs/decisions/0064); the country's minimum only where the site gives no worth of a credit.
  const money = moneyOfCredits(messageCredits, value);
  const price = money
    ? formatMoney(money.amount, money.currency, locale)
    : minimum
      ? formatPrice(minimum.costs, minimum.currency, locale)
      : null;
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
          <button type="button" className="chat-alerts__dismiss" aria-label={t("chat.close")} onClick={dismiss}>
            ×
          </button>
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
