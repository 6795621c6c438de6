import { useT } from "../../page/page-context";
import { ChatModal } from "./ChatModal";

/** The ready first lines the ice-breaker offers (locales: chat.ice_breaker.lines.<name>). */
const ICE_BREAKERS = ["hello", "profile", "smile", "weekend", "travel", "question"] as const;

/** SPEC §2: before the first message, a few first lines to pick from; the pick fills the text area. */
export function IceBreaker({
  name,
  onPick,
  onClose,
}: {
  name: string;
  onPick: (line: string) => void;
  onClose: () => void;
}) {
  const t = useT();
  return (
    <ChatModal title={t("chat.ice_breaker.title")} onClose={onClose} className="ice-breaker">
      <p className="ice-breaker__text">{t("chat.ice_breaker.text", { name })}</p>
      <ul className="ice-breaker__lines">
        {ICE_BREAKERS.map((line) => {
          const text = t(`chat.ice_breaker.lines.${line}`, { name });
          return (
            <li key={line}>
              <button type="button" className="ice-breaker__line" onClick={() => onPick(text)}>
                {text}
              </button>
            </li>
          );
        })}
      </ul>
      <button type="button" className="button button--ghost ice-breaker__own" onClick={onClose}>
        {t("chat.ice_breaker.own")}
      </button>
    </ChatModal>
  );
}
