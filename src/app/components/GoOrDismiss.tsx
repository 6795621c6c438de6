import { Link } from "./Link";

/** The two answers of an alert or an offer: go where it points, or put it away. */
export function GoOrDismiss({ href, go, dismiss, onDismiss, small = false }: { href: string; go: string; dismiss: string; onDismiss: () => void; small?: boolean }) {
  const size = small ? " button--small" : "";
  return (
    <>
      <Link href={href} className={`button button--primary${size}`}>
        {go}
      </Link>
      <button type="button" className={`button button--ghost${size}`} onClick={onDismiss}>
        {dismiss}
      </button>
    </>
  );
}
