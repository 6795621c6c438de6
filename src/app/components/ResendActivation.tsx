import { useState } from "react";
import { apiSend } from "../page/api";
import { useT } from "../page/page-context";
import { formErrors } from "./form-errors";

/** "Send the e-mail again": POST /api/activation-mail.php, then says it was sent (or why not). */
export function ResendActivation({ className = "button button--ghost" }: { className?: string }) {
  const t = useT();
  const [state, setState] = useState<{ status: "idle" | "busy" | "sent" } | { status: "error"; message: string }>({
    status: "idle",
  });
  const resend = async () => {
    setState({ status: "busy" });
    try {
      await apiSend("POST", "/api/activation-mail.php");
      setState({ status: "sent" });
    } catch (error) {
      setState({ status: "error", message: formErrors(error, [], t).message ?? t("errors.has_occurred") });
    }
  };
  if (state.status === "sent") {
    return (
      <p className="resend resend--sent" role="status">
        {t("activate.resent")}
      </p>
    );
  }
  return (
    <span className="resend">
      <button type="button" className={className} disabled={state.status === "busy"} onClick={() => void resend()}>
        {t("activate.resend")}
      </button>
      {state.status === "error" && (
        <span className="field__error" role="alert">
          {state.message}
        </span>
      )}
    </span>
  );
}
