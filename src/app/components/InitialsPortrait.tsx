import { useT } from "../page/page-context";

/** Up to two letters of a name: its first letter and the first of a second word or capital ("SanneB" -> "SB"). */
export function initialsOf(name: string): string {
  const words = name
    .trim()
    .split(/[^\p{L}\p{N}]+|(?<=\p{Ll})(?=\p{Lu})/u)
    .filter(Boolean);
  const letters = words.slice(0, 2).map((word) => [...word][0] ?? "");
  return letters.join("").toLocaleUpperCase() || "?";
}

/**
 * Where a member has no public photo: their initials on the theme's gradient, designed to fill the
 * same frame a photo would, never an empty box. Read out as "{name} has not added a photo yet".
 */
export function InitialsPortrait({ name, className = "" }: { name: string; className?: string }) {
  const t = useT();
  return (
    <span
      className={`initials-portrait ${className}`.trim()}
      role="img"
      aria-label={t("phone_app.no_photo_of", { name })}
    >
      <span className="initials-portrait__letters" aria-hidden="true">
        {initialsOf(name)}
      </span>
    </span>
  );
}
