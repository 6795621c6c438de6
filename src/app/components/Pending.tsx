import { useT } from "../page/page-context";

/** What a section shows until its data is there: "Loading…", or after a failure the error and a retry button. */
export function Pending({ failed, retry, className }: { failed: boolean; retry: () => void; className?: string }) {
  const t = useT();
  if (!failed) {
    return (
      <p className="notice" aria-busy="true">
        {t("search.loading")}
      </p>
    );
  }
  return (
    <div className={className}>
      {/* The form message's look without the form code, which the screens waiting here do not need. */}
      <p className="form-message form-message--error" role="alert">
        {t("errors.try_again_later")}
      </p>
      <button type="button" className="button button--ghost profile-edit__retry" onClick={retry}>
        {t("profile_edit.retry")}
      </button>
    </div>
  );
}
