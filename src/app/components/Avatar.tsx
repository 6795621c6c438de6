import type { MainImage } from "../../shared/api";
import { useSettings } from "../page/page-context";

/** A member's main photo as a small round thumbnail, or their initial when they have none. */
export function Avatar({
  image,
  name,
  premium = false,
  size = 48,
}: {
  image: MainImage | null;
  name: string;
  premium?: boolean;
  size?: number;
}) {
  const settings = useSettings();
  if (!image) {
    return (
      <span className="avatar avatar--initial" style={{ width: size, height: size }} aria-hidden="true">
        {name.slice(0, 1).toUpperCase()}
      </span>
    );
  }
  return (
    <img
      className={premium ? "avatar is-premium" : "avatar"}
      src={settings.cdn_prefix + image.thumb_filename}
      alt=""
      width={size}
      height={size}
      loading="lazy"
      decoding="async"
    />
  );
}
