import { useEffect, useState } from "react";
import { HIDE_TIME_BONUS_MODAL, TIME_BONUS_MODAL_DELAY_MS, countdown } from "../../shared/discounts";
import { useActiveDiscount } from "../hooks/useDiscount";
import { useStoredTimestamp } from "../hooks/useStoredTimestamp";
import { useUser } from "../hooks/useUser";
import { useRouter, useT } from "../page/page-context";
import { GoOrDismiss } from "./GoOrDismiss";
import { Link } from "./Link";

/** Whether the page is in the members area (members, members-id, chats, likes, likes-m-id, premium). */
function useInMembersArea(): boolean {
  const { match } = useRouter();
  return match?.route.membersArea === true;
}

/** An open conversation: no offer opens over it (docs/decisions/0064: no pressure at the moment of spending). */
const CONVERSATION_ROUTES = new Set(["chats-id", "members-id-chat"]);

/** The members area outside an open conversation: the calm moment an offer may wait for. */
function useCalmInMembersArea(): boolean {
  const { match } = useRouter();
  return match?.route.membersArea === true && !CONVERSATION_ROUTES.has(match.route.name);
}

/** The welcome-bonus top banner: the time bonus with its countdown on one line, linking to /credits (SPEC §2, §4). */
export function TimeBonusBanner() {
  const t = useT();
  const inArea = useInMembersArea();
  const { timeBonus, secondsLeft } = useActiveDiscount();
  if (!inArea || !timeBonus) return null;
  return (
    <Link href="/credits" className="time-bonus-banner">
      <span className="time-bonus-banner__text">{t("shell.bonus", { percentage: timeBonus.percentage })}</span>
      <span className="time-bonus-banner__time">{countdown(secondsLeft)}</span>
    </Link>
  );
}

/**
 * The time-bonus modal: opens 40 s after entering the members area (never over an open
 * conversation: it waits for a calm moment outside it), the timer cancelled on leaving it; only for a member with 0 credits while the bonus is visible and the modal was not closed before.
 */
export function TimeBonusModal() {
  const t = useT();
  const inArea = useCalmInMembersArea();
  const { user } = useUser();
  const { timeBonus, secondsLeft } = useActiveDiscount();
  const [hidden, hide] = useStoredTimestamp(HIDE_TIME_BONUS_MODAL);
  const [due, setDue] = useState(false);
  useEffect(() => {
    if (!inArea) return;
    const timer = setTimeout(() => setDue(true), TIME_BONUS_MODAL_DELAY_MS);
    // Leaving the area cancels the timer; entering again starts it anew.
    return () => {
      clearTimeout(timer);
      setDue(false);
    };
  }, [inArea]);
  if (!due || !inArea || !user || user.credits !== 0 || !timeBonus || hidden !== null) return null;
  return (
    <div className="modal-backdrop">
      <div className="modal time-bonus-modal" role="dialog" aria-modal="true" aria-labelledby="time-bonus-title">
        <h2 id="time-bonus-title">{t("discounts.modal_title", { percentage: timeBonus.percentage })}</h2>
        <p>{t("discounts.modal_text", { percentage: timeBonus.percentage, time: countdown(secondsLeft) })}</p>
        <p className="time-bonus-modal__countdown">{countdown(secondsLeft)}</p>
        <div className="modal__actions">
          <GoOrDismiss href="/credits" go={t("discounts.modal_buy")} dismiss={t("discounts.close")} onDismiss={hide} />
        </div>
      </div>
    </div>
  );
}
