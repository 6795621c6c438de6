import { useSettings } from "../context";

/** The document title: the page's own title and the site's name (React hoists it into <head>). */
export function Title({ text }: { text: string }) {
  const settings = useSettings();
  return <title>{text ? `${text} | ${settings.name}` : settings.name}</title>;
}
