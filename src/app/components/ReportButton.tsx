import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useT } from "../page/page-context";

/** The form arrives when a member reaches for the button: profiles and chats show the button, rarely the form. */
const loadReportForm = () => import("./ReportForm");
const ReportForm = lazy(() => loadReportForm().then((module) => ({ default: module.ReportForm })));

type Props = {
  profile: { id: number; name: string };
  /** One chat message (a text or a photo) of this member, or one of their profile's photos. */
  messageId?: number;
  photoId?: number;
  /** The button's label says a photo (a chat photo is reported as its message). */
  photo?: boolean;
  className?: string;
  icon?: boolean;
};

/**
 * The Report action of a profile, of one of its photos and of one received chat message: a button
 * that opens the report form about it in a dialog (the same report /complaints files, with the
 * member and the item filled in). The dialog exists only while open, so a chat of many bubbles
 * carries one button each and no form.
 */
export function ReportButton({
  profile,
  messageId,
  photoId,
  photo = false,
  className = "button button--ghost",
  icon = false,
}: Props) {
  const t = useT();
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    const element = dialog.current;
    if (open && element && !element.open) element.showModal();
  }, [open]);

  const label =
    photo || photoId !== undefined
      ? t("reports.report_photo")
      : messageId !== undefined
        ? t("reports.report_message")
        : t("reports.report_member", { name: profile.name });
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
            <span className="visually-hidden">
              {messageId === undefined && photoId === undefined ? t("reports.report") : label}
            </span>
          </>
        ) : messageId === undefined && photoId === undefined ? (
          t("reports.report")
        ) : (
          label
        )}
      </button>
      {open && (
        <dialog ref={dialog} className="report-dialog" aria-label={label} onClose={() => setOpen(false)}>
          <h2 className="report-dialog__title">{label}</h2>
          <Suspense fallback={<p aria-busy="true">{t("search.loading")}</p>}>
            <ReportForm about={profile} messageId={messageId} photoId={photoId} onCancel={() => setOpen(false)} />
          </Suspense>
        </dialog>
      )}
    </>
  );
}
