import { allowedPartner, partnerPath, promotionVariant } from "../../shared/partners";
import { useSettings, useT } from "../page/page-context";
import { Link } from "./Link";

/**
 * The cam-profile promotion block (SPEC §2) with its two variants: `cam` (live cams of a partner)
 * or `resell` (more members like this one at a partner), as the site's member_resell says. It
 * shows only when the site names that partner, and links through the redirect with a countdown.
 */
export function CamPromotion({ name }: { name: string }) {
  const t = useT();
  const settings = useSettings();
  const variant = promotionVariant(settings);
  const partner = allowedPartner(settings, variant);
  if (!partner) return null;
  return (
    <aside className={`cam-promotion cam-promotion--${variant}`} aria-labelledby="cam-promotion-heading">
      <h2 id="cam-promotion-heading">{t(`legal.promotion.${variant}.heading`, { name, partner: partner.name })}</h2>
      <p>{t(`legal.promotion.${variant}.text`, { name, partner: partner.name })}</p>
      <Link href={partnerPath(variant)} className="button button--primary" rel="nofollow">
        {t(`legal.promotion.${variant}.button`, { name, partner: partner.name })}
      </Link>
    </aside>
  );
}
