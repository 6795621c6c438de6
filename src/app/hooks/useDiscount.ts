import { useSyncExternalStore } from "react";
import useSWR from "swr";
import type { DiscountResponse, DiscountView } from "../../shared/discounts";
import { apiFetch } from "../page/api";
import { usePage } from "../page/page-context";
import { WELCOME_KEY } from "../page/page-data";
import { useUser } from "./useUser";

const everySecond = (notify: () => void) => {
  const timer = setInterval(notify, 1000);
  return () => clearInterval(timer);
};

/**
 * Now in whole seconds, ticking each second. On the server and while hydrating it is the moment the
 * page was drawn, so a countdown hydrates as the server drew it and then moves on.
 */
function useSecond(): number {
  const { rendered_at: renderedAt } = usePage();
  return useSyncExternalStore(
    everySecond,
    () => Math.floor(Date.now() / 1000),
    () => renderedAt,
  );
}

/** The welcome call's failures are ignored (SPEC §7): no offer is shown then. */
async function fetchOffer(key: string): Promise<DiscountResponse | null> {
  try {
    return await apiFetch<DiscountResponse>(key);
  } catch {
    return null;
  }
}

/**
 * The member's offers (SPEC §4): loaded once signed in, gone on logout and on becoming paid (the key
 * goes away with the user), the time bonus gone at its expiry. `active` is the time bonus if present,
 * otherwise the welcome discount; `secondsLeft` counts the time bonus down each second.
 */
export function useActiveDiscount(): {
  active: DiscountView | null;
  timeBonus: DiscountView | null;
  secondsLeft: number;
} {
  const { user } = useUser();
  const { data } = useSWR<DiscountResponse | null>(user && !user.paid_user ? WELCOME_KEY : null, fetchOffer, {
    revalidateOnFocus: false,
  });
  const now = useSecond();
  const offer = user && !user.paid_user ? data : null;
  const secondsLeft = offer?.time_bonus?.expires && now ? offer.time_bonus.expires - now : 0;
  const timeBonus = offer?.time_bonus && secondsLeft > 0 ? offer.time_bonus : null;
  return { active: timeBonus ?? offer?.discount ?? null, timeBonus, secondsLeft: timeBonus ? secondsLeft : 0 };
}
