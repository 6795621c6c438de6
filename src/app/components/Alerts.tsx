import type { User } from "../../shared/api";
import { useRouter, useT } from "../context";
import { useUser } from "../hooks/useUser";
import { ResendActivation } from "./ResendActivation";

/** Routes on which the account-activation reminder does not show (SPEC §2 Alerts). */
const NO_ACTIVATION_REMINDER = new Set(["signup", "settings", "notifications"]);

/** SPEC §2: remind a member whose e-mail is unconfirmed, unless their mail is disabled (that alert says more). */
export function showActivationReminder(user: Pick<User, "status" | "notifications_disabled"> | null, routeName: string | null): boolean {
  if (!user || user.status !== "not_confirmed" || user.notifications_disabled.length > 0) return false;
  return routeName === null || !NO_ACTIVATION_REMINDER.has(routeName);
}

/** The alerts under the top bar of the Default layout. */
export function Alerts() {
  const { user } = useUser();
  const { match } = useRouter();
  const t = useT();
  if (!user || !showActivationReminder(user, match?.route.name ?? null)) return null;
  return (
    <div className="alerts">
      <div className="alert alert--warning" role="status">
        <p>{t("alerts.activation", { email: user.email })}</p>
        <ResendActivation className="button button--ghost button--small" />
      </div>
    </div>
  );
}
