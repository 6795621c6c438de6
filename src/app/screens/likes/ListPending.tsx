import type { ApiRequestError } from "../../page/api";
import { useT } from "../../page/page-context";

/** What a likes list shows until it is there: the server's error text, or "Loading…". */
export function ListPending({ error }: { error: ApiRequestError | undefined }) {
  const t = useT();
  return error ? (
    <p className="notice notice--error" role="alert">
      {error.message}
    </p>
  ) : (
    <p className="notice" aria-busy="true">
      {t("search.loading")}
    </p>
  );
}
