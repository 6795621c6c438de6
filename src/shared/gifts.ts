/**
 * The gifts members can send in a chat. Each site sells the catalogue's gifts at its own prices
 * (settings `gifts`: slug -> credits; a gift without a price of its own costs `gift_credits`, and
 * a price of 0 takes the gift off that site). Names come from locales/ (`gifts.<slug>`), images
 * from public/gifts/<slug>.svg.
 */
export const GIFT_SLUGS = ["rose", "heart", "kiss", "chocolates", "cocktail", "champagne", "teddy", "ring"] as const;
type GiftSlug = (typeof GIFT_SLUGS)[number];

export const isGiftSlug = (value: string): value is GiftSlug => (GIFT_SLUGS as readonly string[]).includes(value);

export const giftImage = (slug: GiftSlug) => `/gifts/${slug}.svg`;

/** The gifts a site sells with their prices in credits, in catalogue order. */
export function siteGifts(site: {
  gift_credits: number;
  gifts?: Partial<Record<GiftSlug, number>> | undefined;
}): { slug: GiftSlug; credits: number }[] {
  return GIFT_SLUGS.map((slug) => ({ slug, credits: site.gifts?.[slug] ?? site.gift_credits })).filter(
    (gift) => gift.credits > 0,
  );
}
