import { useEffect, useRef, useState } from "react";
import type { User } from "../../../shared/api";
import { apiSend } from "../../page/api";
import { formErrors } from "../../components/Form";
import { Link } from "../../components/Link";
import { Title } from "../../components/Title";
import { useT } from "../../page/page-context";
import { useUser } from "../../hooks/useUser";
import type { ScreenProps } from "../../page/page-state";

type State = { status: "busy" } | { status: "done"; email: string } | { status: "error"; message: string };

/** The link mailed to a new address (?token=): confirms it once the page is in the browser. */
export default function MailChangeDoScreen({ query }: ScreenProps) {
  const t = useT();
  const { user, setUser } = useUser();
  const token = query.get("token") ?? "";
  const [state, setState] = useState<State>(
    token ? { status: "busy" } : { status: "error", message: t("errors.link_expired") },
  );
  const sent = useRef<string | null>(null);

  useEffect(() => {
    // Once per token: the link is single-use, a second call would report it expired.
    if (!token || sent.current === token) return;
    sent.current = token;
    apiSend<{ user: User }>("PUT", "/api/mail-change.php", { token })
      .then(async ({ user: changed }) => {
        await setUser(changed);
        setState({ status: "done", email: changed.email });
      })
      .catch((error: unknown) =>
        setState({ status: "error", message: formErrors(error, [], t).message ?? t("errors.link_expired") }),
      );
  }, [token, setUser, t]);

  const title = t("mail_change.title");
  return (
    <section className="form-page result-page">
      <Title text={title} />
      <h1>{title}</h1>
      {state.status === "busy" && (
        <p className="notice" aria-busy="true">
          {t("mail_change.busy")}
        </p>
      )}
      {state.status === "done" && (
        <p className="form-message form-message--success" role="status">
          {t("mail_change.done", { email: state.email })}
        </p>
      )}
      {state.status === "error" && (
        <p className="form-message form-message--error" role="alert">
          {state.message}
        </p>
      )}
      {state.status !== "busy" && (
        <Link href={user ? "/notifications" : "/login"} className="button button--primary">
          {user ? t("mail_change.to_settings") : t("login.submit")}
        </Link>
      )}
    </section>
  );
}
