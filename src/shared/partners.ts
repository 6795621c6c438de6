/**
 * Partners (SPEC §2 cam-profile promotion block, §9 redirect to a partner with a seconds
 * countdown). Only a partner named in the site's settings can be a target, looked up by its own
 * name: a name like "constructor" finds nothing, and no address from a request is ever followed.
 */
import type { Partner, SiteSettings } from "./settings";

/** Seconds the redirect page counts down before it goes to the partner. */
export const PARTNER_REDIRECT_SECONDS = 5;

/** The variants of the cam-profile promotion block; each shows the partner of the same name. */
type PromotionVariant = "cam" | "resell";

/** The partner of this name in the site's allow-list, or undefined. */
export function allowedPartner(settings: Pick<SiteSettings, "partners">, name: string): Partner | undefined {
  const partners = settings.partners;
  if (!partners || !Object.hasOwn(partners, name)) return undefined;
  const partner = partners[name]!;
  // Checked again here, so a setting written past the schema still cannot send anyone off https.
  return URL.canParse(partner.url) && new URL(partner.url).protocol === "https:" ? partner : undefined;
}

/** The block's variant for this site: `resell` when the site resells its members (member_resell), else `cam`. */
export function promotionVariant(settings: Pick<SiteSettings, "member_resell">): PromotionVariant {
  return settings.member_resell ? "resell" : "cam";
}

/** The path of the redirect page to a partner. */
export const partnerPath = (name: string) => `/out/${encodeURIComponent(name)}`;
