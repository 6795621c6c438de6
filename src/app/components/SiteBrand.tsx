import { useSettings } from "../page/page-context";
import { Link } from "./Link";

/**
 * The site's logo and name at the head of the signup and its steps (issue 23): those pages have no
 * top bar, and ask for an e-mail address and a birth date, so they say whose site this is. Links home.
 */
export function SiteBrand() {
  const settings = useSettings();
  return (
    <Link href="/" className="site-brand">
      <img src="/icons/icon.svg" alt="" width={32} height={32} />
      <span className="site-brand__name">{settings.name}</span>
    </Link>
  );
}
