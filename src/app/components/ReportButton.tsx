import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useT } from "../page/page-context";

/** The form arrives when a member reaches for the button: profiles and chats show the button, rarely the form. */
const loadReportForm = () => import("./ReportForm");
const ReportForm = lazy(() => loadReportForm().then((module) => ({ default: module.ReportForm })));

/**
 * The Report action of a profile and of a chat: a button that opens the report form about this
 * member in a dialog (the same report /complaints files, with the member filled in).
 */
export function ReportButton({
  profile,
  className = "button button--ghost",
  icon = false,
}: {
  profile: { id: number; name: string };
  className?: string;
  icon?: boolean;
}) {
  const t = useT();
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

  const label = t("reports.report_member", { name: profile.name });
  return (
    <>
      <button
        type="button"
        className={className}
        onClick={() => setOpen(true)}
        onPointerDown={() => void loadReportForm()}
        onFocus={() => void loadReportForm()}
        aria-haspopup="dialog"
        title={label}
      >
        {icon ? (
          <>
            <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
              <path fill="currentColor" d="M5 3h2v1h12l-2.5 5L19 14H7v7H5V3zm2 3v6h8.8l-1.5-3 1.5-3H7z" />
            </svg>
            <span className="visually-hidden">{t("reports.report")}</span>
          </>
        ) : (
          t("reports.report")
        )}
      </button>
      <dialog ref={dialog} className="report-dialog" aria-label={label} onClose={() => setOpen(false)}>
        {open && (
          <>
            <h2 className="report-dialog__title">{label}</h2>
            <Suspense fallback={<p aria-busy="true">{t("search.loading")}</p>}>
              <ReportForm about={profile} onCancel={() => setOpen(false)} />
            </Suspense>
          </>
        )}
      </dialog>
    </>
  );
}
