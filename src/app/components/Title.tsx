import { useSettings } from "../page-context";
import { useTitlePrefix } from "./ActivityCount";

/** The document title: the unread count, the page's own title and the site's name (React hoists it into <head>). */
export function Title({ text }: { text: string }) {
  const settings = useSettings();
  const prefix = useTitlePrefix();
  return <title>{prefix + (text ? `${text} | ${settings.name}` : settings.name)}</title>;
}
