/**
 * Demo members as plain rows keyed by column name, without photos. Profile i depends only on
 * (seed, i, now), so any count yields the same first profiles; a benchmark can ask for 100,000.
 */
import type { Language } from "../../src/shared/locales";
import { aboutMe, isAboutLanguage } from "./about";
import { INTERESTS } from "./interests";
import { FIRST_NAMES, type Gender } from "./names";
import { Random, hashString } from "./random";
import { REGIONS_BY_COUNTRY, regionWeight, type DemoCountry, type Region } from "./regions";
import { SITE_FOR_COUNTRY } from "./sites";

export const HAIR_COLORS = ["black", "brown", "blonde", "red", "grey", "other"] as const;
export const EYE_COLORS = ["blue", "brown", "green", "grey", "hazel"] as const;
export type HairColor = (typeof HAIR_COLORS)[number];
export type EyeColor = (typeof EYE_COLORS)[number];

export interface UserRow {
  id: number;
  email: string;
  username: string;
  username_key: string;
  password_hash: null;
  status: "active";
  credits: number;
  paid_user: number;
  language: Language;
  site_domain: string;
  signup_date: number;
  last_active_at: number;
}

export interface ProfileRow {
  id: number;
  user_id: number;
  name: string;
  country: DemoCountry;
  gender: Gender;
  sexuality: "hetero" | "gay" | "lesbian" | "bi";
  birth_date: string;
  tattoos: "none" | "some" | "many";
  hair_color: HairColor;
  eye_color: EyeColor;
  body_type: "slim" | "normal" | "fat";
  relationship_status: "single" | "married" | "divorced" | "widowed" | "living_together" | "unmarried";
  region_id: number;
  city: string;
  about_me: string;
  main_photo_id: number | null;
  status: "active";
  fictional: number;
  searchable: number;
  last_active_at: number;
  created_at: number;
}

export interface ProfileInterestRow {
  profile_id: number;
  interest_id: number;
}

export interface DemoProfiles {
  users: UserRow[];
  profiles: ProfileRow[];
  profileInterests: ProfileInterestRow[];
}

const COUNTRY_WEIGHTS: Readonly<Partial<Record<DemoCountry, number>>> = {
  NL: 30,
  DE: 28,
  BE: 18,
  AT: 7,
  CH: 7,
  GB: 7,
  IE: 3,
};
/**
 * Members of the countries added later (their own sites: dk, no, se, pl.localhost), made after the
 * first `count` with ids of their own, so members 1..N stay the same as before for any N.
 */
const LATER_COUNTRY_WEIGHTS: Readonly<Partial<Record<DemoCountry, number>>> = { DK: 3, NO: 3, SE: 4, PL: 6 };
const LATER_SHARE = 0.1;
const MAIN_LANGUAGE: Readonly<Record<DemoCountry, Language>> = {
  NL: "nl",
  BE: "nl",
  DE: "de",
  AT: "de",
  CH: "de",
  GB: "en",
  IE: "en",
  DK: "da",
  NO: "nb",
  SE: "sv",
  PL: "pl",
  FI: "fi",
  FR: "fr",
  ES: "es",
  IT: "it",
};
const DAY = 86_400;

function age(rnd: Random): number {
  const r = rnd.next();
  if (r < 0.1) return rnd.int(18, 24);
  if (r < 0.82) return Math.round(25 + 30 * ((rnd.next() + rnd.next()) / 2));
  return 56 + Math.floor(25 * rnd.next() ** 1.6);
}

/** A date of birth that makes the member exactly `years` old on the day of `nowSeconds`. */
function birthDate(years: number, nowSeconds: number, rnd: Random): string {
  const now = new Date(nowSeconds * 1000);
  const birthday = Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate());
  return new Date(birthday - rnd.int(0, 364) * DAY * 1000).toISOString().slice(0, 10);
}

function hairColor(country: DemoCountry, years: number, rnd: Random): HairColor {
  const grey = years >= 60 ? 0.55 : years >= 50 ? 0.22 : 0.01;
  if (rnd.chance(grey)) return "grey";
  const fair = ["NL", "DE", "AT", "CH", "DK", "NO", "SE", "PL"].includes(country);
  return rnd.weighted({
    black: 16,
    brown: 42,
    blonde: fair ? 30 : 22,
    red: country === "IE" ? 12 : country === "GB" ? 7 : 4,
    other: years < 40 ? 5 : 1,
  });
}

function sexuality(gender: Gender, rnd: Random): ProfileRow["sexuality"] {
  return gender === "female"
    ? rnd.weighted({ hetero: 85, bi: 9, lesbian: 6 })
    : rnd.weighted({ hetero: 86, bi: 6, gay: 8 });
}

function relationship(years: number, rnd: Random): ProfileRow["relationship_status"] {
  return rnd.weighted({
    single: 55,
    unmarried: 10,
    divorced: years > 30 ? 16 : 1,
    living_together: 5,
    married: 7,
    widowed: years > 55 ? 8 : 0,
  });
}

const ascii = (s: string) => s.normalize("NFD").replace(/[^A-Za-z0-9]/g, "");

function username(first: string, city: string, birth: string, rnd: Random): string {
  const f = ascii(first);
  const style = rnd.int(0, 4);
  if (style === 0) return `${f.toLowerCase()}${birth.slice(2, 4)}`;
  if (style === 1) return `${f}_${ascii(city).slice(0, 12)}`;
  if (style === 2) return `${f.toLowerCase()}.${rnd.int(1, 99)}`;
  if (style === 3) return `${f}${birth.slice(0, 4)}`;
  return `${rnd.pick(["sweet", "happy", "sunny", "wild", "lovely", "cool", "real"])}${f}${rnd.int(1, 999)}`;
}

function languageIn(region: Region, rnd: Random): Language {
  // Only demo countries have demo members, so only their regions are drawn.
  if (!region.languages) return MAIN_LANGUAGE[region.country as DemoCountry];
  return rnd.weightedBy(region.languages, ([, w]) => w)[0];
}

/** Everything one demo member is made of, drawn from `rnd`; `seen` keeps the usernames unique. */
function addMember(
  out: DemoProfiles,
  id: number,
  country: DemoCountry,
  siteDomain: string,
  rnd: Random,
  now: number,
  seen: Set<string>,
): void {
  const region = rnd.weightedBy(REGIONS_BY_COUNTRY[country], regionWeight);
  const city = rnd.weightedBy(region.cities, (c) => c.weight).name;
  const gender: Gender = rnd.chance(0.5) ? "female" : "male";
  const name = rnd.pick(FIRST_NAMES[country][gender]);
  const years = age(rnd);
  const birth = birthDate(years, now, rnd);
  const language = languageIn(region, rnd);
  const interests = rnd.sample(INTERESTS, rnd.int(2, 6));
  const lastActive = now - Math.floor(30 * DAY * rnd.next() ** 2);
  const created = lastActive - rnd.int(DAY, 700 * DAY);

  let handle = username(name, city, birth, rnd);
  if (seen.has(handle.toLowerCase())) handle = `${handle}${id}`;
  seen.add(handle.toLowerCase());

  out.users.push({
    id,
    email: `demo${id}@example.invalid`,
    username: handle,
    username_key: handle.normalize("NFKC").toLowerCase(),
    password_hash: null,
    status: "active",
    credits: 0,
    paid_user: 0,
    language,
    site_domain: siteDomain,
    signup_date: created,
    last_active_at: lastActive,
  });
  out.profiles.push({
    id,
    user_id: id,
    name,
    country,
    gender,
    sexuality: sexuality(gender, rnd),
    birth_date: birth,
    tattoos: rnd.weighted({ none: years < 40 ? 50 : 68, some: 32, many: years < 40 ? 14 : 6 }),
    hair_color: hairColor(country, years, rnd),
    eye_color: rnd.weighted({ blue: 32, brown: 33, green: 12, grey: 8, hazel: 15 }),
    body_type: rnd.weighted({ slim: 33, normal: 52, fat: 15 }),
    relationship_status: relationship(years, rnd),
    region_id: region.id,
    city,
    about_me: aboutMe(
      isAboutLanguage(language) ? language : "en",
      { name, age: years, city, gender, country, interests: interests.map((x) => x.slug) },
      rnd,
    ),
    main_photo_id: null,
    status: "active",
    fictional: 1,
    searchable: 1,
    last_active_at: lastActive,
    created_at: created,
  });
  for (const interest of interests) out.profileInterests.push({ profile_id: id, interest_id: interest.id });
}

/**
 * The countries whose demo sites came with the launch checklist (fi, fr, es, it.localhost): a full
 * seed gives each NEWER_SHARE of `count` members, made after all the others (ids of their own).
 */
export const NEWER_COUNTRIES = ["FI", "FR", "ES", "IT"] as const satisfies readonly DemoCountry[];
const NEWER_SHARE = 0.03;

export function generateProfiles(count: number, seed = 1, nowMs = Date.now()): DemoProfiles {
  const now = Math.floor(nowMs / 1000);
  const out: DemoProfiles = { users: [], profiles: [], profileInterests: [] };
  const seen = new Set<string>();
  const later = Math.round(count * LATER_SHARE);
  for (let i = 0; i < count + later; i++) {
    const id = i + 1;
    const rnd = new Random(hashString(i < count ? `profile:${seed}:${id}` : `profile:${seed}:later:${i - count + 1}`));
    const country = rnd.weighted((i < count ? COUNTRY_WEIGHTS : LATER_COUNTRY_WEIGHTS) as Record<DemoCountry, number>);
    addMember(out, id, country, SITE_FOR_COUNTRY[country], rnd, now, seen);
  }
  for (const country of NEWER_COUNTRIES) {
    const more = generateCountryProfiles(country, Math.round(count * NEWER_SHARE), {
      firstId: out.users.length + 1,
      seed,
      nowMs,
      taken: seen,
    });
    out.users.push(...more.users);
    out.profiles.push(...more.profiles);
    out.profileInterests.push(...more.profileInterests);
  }
  return out;
}

/**
 * `count` demo members of one country, with ids from `firstId` on (after a database's last), who
 * signed up on `site` (the country's demo site unless told). The same seed, country and first id
 * give the same members; `taken` holds the usernames (lower case) already in use.
 */
export function generateCountryProfiles(
  country: DemoCountry,
  count: number,
  options: { firstId: number; seed?: number; nowMs?: number; site?: string; taken?: Set<string> },
): DemoProfiles {
  const { firstId, seed = 1, nowMs = Date.now(), site = SITE_FOR_COUNTRY[country], taken = new Set() } = options;
  const now = Math.floor(nowMs / 1000);
  const out: DemoProfiles = { users: [], profiles: [], profileInterests: [] };
  for (let k = 0; k < count; k++) {
    const id = firstId + k;
    addMember(out, id, country, site, new Random(hashString(`profile:${seed}:${country}:${id}`)), now, taken);
  }
  return out;
}
