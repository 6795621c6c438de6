/** What a country calls its first-level regions (SPEC §9: province, state, county, canton). */
type RegionKind = "province" | "state" | "canton" | "county" | "region";

const KINDS: Record<string, RegionKind> = {
  AT: "state",
  BE: "province",
  CH: "canton",
  DE: "state",
  DK: "region",
  ES: "province",
  FI: "region",
  FR: "region",
  GB: "region",
  IE: "province",
  IT: "region",
  NL: "province",
  NO: "county",
  PL: "province",
  SE: "county",
  US: "state",
};

export function regionKind(country: string): RegionKind {
  return KINDS[country] ?? "region";
}
