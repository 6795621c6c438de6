import { Link } from "./Link";

/** The two answers of an alert or an offer: go where it points, or put it away (as a small × where room is short). */
export function GoOrDismiss({
  href,
  go,
  dismiss,
  onDismiss,
  small = false,
  iconDismiss = false,
}: {
  href: string;
  go: string;
  dismiss: string;
  onDismiss: () => void;
  small?: boolean;
  iconDismiss?: boolean;
}) {
  const size = small ? " button--small" : "";
  return (
    <>
      <Link href={href} className={`button button--primary${size}`}>
        {go}
      </Link>
      {iconDismiss ? (
        <DismissButton label={dismiss} onDismiss={onDismiss} />
      ) : (
        <button type="button" className={`button button--ghost${size}`} onClick={onDismiss}>
          {dismiss}
        </button>
      )}
    </>
  );
}

/** Put a notice away: a round × whose name says how ("Not now"). */
export function DismissButton({ label, onDismiss }: { label: string; onDismiss: () => void }) {
  return (
    <button type="button" className="icon-button alert__dismiss" onClick={onDismiss} aria-label={label} title={label}>
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
        <path
          fill="currentColor"
          d="M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12l5.6 5.6-1.4 1.4-5.6-5.6L6.4 19 5 17.6 10.6 12 5 6.4z"
        />
      </svg>
    </button>
  );
}
