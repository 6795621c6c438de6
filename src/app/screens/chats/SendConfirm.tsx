import { useState } from "react";
import { useT } from "../../page/page-context";
import { Link } from "../../components/Link";
import { ChatModal } from "./ChatModal";

type Props = {
  title: string;
  /** What the send costs, said in a sentence (credits and money). */
  text: string;
  /** The balance after the send, in credits. */
  balanceAfter: number;
  /** Null when the balance pays for it; otherwise why it cannot be sent (the way to credits is offered instead). */
  shortOf: string | null;
  /** The photo to preview (an object URL of the picked file): nothing is uploaded until Send. */
  photoUrl?: string;
  /** Offer "don't ask me again" (a paid send the member may stop being asked about). */
  canStopAsking: boolean;
  onSend: (stopAsking: boolean) => void;
  onCancel: () => void;
};

/** Before a paid send: its price and the balance after it, Send or Cancel (docs/decisions/0064). */
export function SendConfirm({ title, text, balanceAfter, shortOf, photoUrl, canStopAsking, onSend, onCancel }: Props) {
  const t = useT();
  const [stopAsking, setStopAsking] = useState(false);
  return (
    <ChatModal title={title} onClose={onCancel} className="send-confirm">
      {photoUrl && <img className="send-confirm__photo" src={photoUrl} alt={t("spend.preview_alt")} />}
      <p className="send-confirm__price">{text}</p>
      {shortOf ? (
        <p className="send-confirm__balance" role="alert">
          {shortOf}
        </p>
      ) : (
        <p className="send-confirm__balance">{t("spend.balance_after", { count: balanceAfter })}</p>
      )}
      {canStopAsking && !shortOf && (
        <label className="send-confirm__stop">
          <input type="checkbox" checked={stopAsking} onChange={(event) => setStopAsking(event.target.checked)} />
          {t("spend.dont_ask")}
        </label>
      )}
      <div className="modal__actions">
        {shortOf ? (
          <Link href="/credits" className="button button--primary">
            {t("chat.buy_credits")}
          </Link>
        ) : (
          <button type="button" className="button button--primary" onClick={() => onSend(stopAsking)}>
            {t("spend.send")}
          </button>
        )}
        <button type="button" className="button button--secondary" onClick={onCancel}>
          {t("spend.cancel")}
        </button>
      </div>
    </ChatModal>
  );
}
