import { lazy, Suspense, useState } from "react";
import type { Gift, GiftsResponse } from "../../../shared/chat";
import { giftCosts, quotePrice, quoteSend, type SendQuote } from "../../../shared/send-costs";
import { confirmTurnedOff, turnConfirmOff } from "../../hooks/usePaidSends";
import { ApiRequestError, apiSend } from "../../page/api";
import { useT, useWritingLocale } from "../../page/page-context";
import { useUser } from "../../hooks/useUser";
import { GiftPicker } from "../chats/GiftPicker";

/** The price's confirmation arrives when a gift asks for it, as in the chat. */
const SendConfirm = lazy(() => import("../chats/SendConfirm").then((module) => ({ default: module.SendConfirm })));

/**
 * The profile's gift button (SPEC §2): the chat's gift picker; the chosen gift is sent as a gift
 * message in the pair's conversation (POST /api/gift.php), at chat's price and with chat's refusals.
 */
export function GiftButton({ profileId, name }: { profileId: number; name: string }) {
  const t = useT();
  const { user, setUser } = useUser();
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [ask, setAsk] = useState<{ gift: Gift; quote: SendQuote } | null>(null);
  const locale = useWritingLocale();
  // A gift above the site's threshold asks first, with its price in money (docs/decisions/0064).
  const pick = (gift: Gift, list: GiftsResponse) => {
    const quote = quoteSend(
      giftCosts(list.credit_value, list.confirm_above),
      { kind: "gift", credits: gift.credits },
      { balance: user?.credits ?? 0, confirmOff: confirmTurnedOff(), confirmedHere: false },
    );
    if (!quote.confirm) return void send(gift);
    setOpen(false);
    setAsk({ gift, quote });
  };
  const send = async (gift: Gift) => {
    setOpen(false);
    setStatus(null);
    try {
      const clientId = crypto.randomUUID().replaceAll("-", "");
      const sent = await apiSend<{ credits: number }>("POST", "/api/gift.php", {
        profile: { id: profileId },
        gift: gift.slug,
        client_id: clientId,
      });
      if (user) void setUser({ ...user, credits: sent.credits });
      setStatus({ ok: true, text: t("likes.gift_sent", { name }) });
    } catch (error) {
      setStatus({ ok: false, text: error instanceof ApiRequestError ? error.message : t("errors.try_again_later") });
    }
  };
  return (
    <>
      <button type="button" className="button button--ghost" onClick={() => setOpen(true)}>
        {t("profile.gift")}
      </button>
      {status && (
        <p className={status.ok ? "notice" : "notice notice--error"} role={status.ok ? "status" : "alert"}>
          {status.text}
        </p>
      )}
      {open && <GiftPicker name={name} onPick={pick} onClose={() => setOpen(false)} />}
      {ask && (
        <Suspense fallback={null}>
          <SendConfirm
            title={t("spend.confirm_title", { price: quotePrice(t, ask.quote, locale) })}
            text={t("spend.confirm_gift", { gift: ask.gift.name, name, price: quotePrice(t, ask.quote, locale) })}
            balanceAfter={ask.quote.balance_after}
            shortOf={null}
            canStopAsking
            onSend={(stopAsking) => {
              if (stopAsking) turnConfirmOff();
              setAsk(null);
              void send(ask.gift);
            }}
            onCancel={() => setAsk(null)}
          />
        </Suspense>
      )}
    </>
  );
}
