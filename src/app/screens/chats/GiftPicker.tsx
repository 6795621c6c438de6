import useSWR from "swr";
import type { Gift, GiftsResponse } from "../../../shared/chat";
import type { ApiRequestError } from "../../page/api";
import { Pending } from "../../components/Pending";
import { useT, useWritingLocale } from "../../page/page-context";
import { creditsWithMoney, moneyOfCredits } from "../../../shared/send-costs";
import { GIFTS_KEY } from "../../page/page-data";
import { ChatModal } from "./ChatModal";

/** The gifts this site sells (GET /api/gifts.php): image, name and price in credits and money; one tap sends it. */
export function GiftPicker({
  name,
  onPick,
  onClose,
}: {
  name: string;
  /** The gift picked, with the list it came from (what a credit is worth, when a gift asks first). */
  onPick: (gift: Gift, list: GiftsResponse) => void;
  onClose: () => void;
}) {
  const t = useT();
  const locale = useWritingLocale();
  const { data, error, mutate } = useSWR<GiftsResponse, ApiRequestError>(GIFTS_KEY);
  return (
    <ChatModal title={t("chat.gifts_title", { name })} onClose={onClose}>
      {!data ? (
        <Pending failed={error !== undefined} retry={() => void mutate()} />
      ) : (
        <ul className="gift-grid">
          {data.gifts.map((gift) => (
            <li key={gift.slug}>
              <button type="button" className="gift-tile" onClick={() => onPick(gift, data)}>
                <img src={gift.image} alt="" width={56} height={56} />
                <span className="gift-tile__name">{gift.name}</span>
                <span className="gift-tile__price">
                  {creditsWithMoney(t, gift.credits, moneyOfCredits(gift.credits, data.credit_value), locale)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </ChatModal>
  );
}
