import { useState } from "react";
import type { ChatCosts, Gift } from "../../shared/chat";
import { SEND_CONFIRM_OFF_KEY } from "../../shared/browser-storage";
import { quoteSend, type SendQuote } from "../../shared/send-costs";

/** A send waiting for the member's answer: a paid text or gift to confirm, or a photo to preview. */
export type SendAsk =
  | { kind: "text"; quote: SendQuote }
  | { kind: "gift"; quote: SendQuote; gift: Gift }
  | { kind: "image"; quote: SendQuote; file: File; url: string };

type Senders = { sendText: () => void; sendGift: (gift: Gift) => void; sendPhoto: (file: File) => void };

/** The member turned the confirmation of paid sends off in this browser. */
export function confirmTurnedOff(): boolean {
  try {
    return localStorage.getItem(SEND_CONFIRM_OFF_KEY) !== null;
  } catch {
    return false;
  }
}

export function turnConfirmOff(): void {
  try {
    localStorage.setItem(SEND_CONFIRM_OFF_KEY, String(Date.now()));
  } catch {
    // Without storage the page asks again next time.
  }
}

/**
 * The price before every paid send (docs/decisions/0064): the first paid message of the
 * conversation and photos or gifts above the site's threshold ask once; a photo is always previewed
 * with its price first. Cancelling sends, uploads and charges nothing.
 */
export function usePaidSends(costs: ChatCosts, balance: number, senders: Senders) {
  const [ask, setAsk] = useState<SendAsk | null>(null);
  const [confirmedHere, setConfirmedHere] = useState(false);
  const quote = (kind: SendQuote["kind"], credits?: number) =>
    quoteSend(costs, { kind, credits }, { balance, confirmOff: confirmTurnedOff(), confirmedHere });

  const requestText = () => {
    const q = quote("text");
    if (q.confirm) setAsk({ kind: "text", quote: q });
    else senders.sendText();
  };
  const requestGift = (gift: Gift) => {
    const q = quote("gift", gift.credits);
    if (q.confirm) setAsk({ kind: "gift", quote: q, gift });
    else senders.sendGift(gift);
  };
  // The preview is drawn from the member's own device; its URL is given back once answered.
  const requestPhoto = (file: File) =>
    setAsk({ kind: "image", quote: quote("image"), file, url: URL.createObjectURL(file) });
  const close = () => {
    if (ask?.kind === "image") URL.revokeObjectURL(ask.url);
    setAsk(null);
  };

  const confirm = (stopAsking: boolean) => {
    if (!ask) return;
    if (stopAsking) turnConfirmOff();
    close();
    if (ask.kind === "text") {
      setConfirmedHere(true);
      senders.sendText();
    } else if (ask.kind === "gift") senders.sendGift(ask.gift);
    else senders.sendPhoto(ask.file);
  };

  return { ask, nextText: quote("text"), requestText, requestGift, requestPhoto, confirm, cancel: close };
}
