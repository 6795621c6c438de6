/** What a country calls its first-level regions (SPEC §9: province, state, county, canton). */
type RegionKind = "province" | "state" | "canton" | "county" | "region";

const KINDS: Record<string, RegionKind> = {
  AT: "state",
  BE: "province",
  CH: "canton",
  DE: "state",
  DK: "region",
  // The autonomous communities (ES-AN ...), not the fifty provinces.
  ES: "region",
  FI: "region",
  FR: "region",
  GB: "region",
  IE: "province",
  IT: "region",
  LU: "canton",
  NL: "province",
  NO: "county",
  PL: "province",
  PT: "region",
  SE: "county",
  US: "state",
};

export function regionKind(country: string): RegionKind {
  return KINDS[country] ?? "region";
}
