import { useSettings } from "../page/page-context";
import { useTitlePrefix } from "./ActivityCount";

/**
 * The document title: the unread count, the page's own title and the site's name (React hoists it
 * into <head>). `whole` is a title that already names the site (the home page's), kept as it is.
 */
export function Title({ text, whole = false }: { text: string; whole?: boolean }) {
  const settings = useSettings();
  const prefix = useTitlePrefix();
  return <title>{prefix + (whole && text ? text : text ? `${text} | ${settings.name}` : settings.name)}</title>;
}
