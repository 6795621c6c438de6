import { env } from "cloudflare:workers";
import * as v from "valibot";
import { DEVELOPMENT_VAPID } from "../scripts/demo/vapid-keys";
import { CompanyInfo, SiteSettings, companyKey, siteKey } from "../src/shared/settings";

const texts = (en: string) => ({ en });

export const COMPANY: CompanyInfo = {
  name: "Testing Company B.V.",
  address: "Keizersgracht 1",
  registration_number: "12345678",
  postal_code: "1015 CJ",
  city: "Amsterdam",
  country: "NL",
  tradenames: ["Testwave"],
  vat_numbers: ["NL000000000B01"],
  support_phone: "+31 20 000 0000",
  delete_discount: 50,
  added: "2024-03-01T12:00:00.000Z",
};

/** Test prices: NL with iDEAL and direct debit, BE (and any other country) with Bancontact. */
const PRICING: Record<string, SiteSettings["pricing"][string]> = {
  NL: {
    currency: "EUR",
    vat_rate: 21,
    methods: ["ideal", "creditcard", "paypal", "directdebit"],
    bundles: [
      { id: 1, credits: 50, amount: 995 },
      { id: 2, credits: 125, amount: 1995, popular: true },
      { id: 3, credits: 300, amount: 3995 },
    ],
  },
  BE: {
    currency: "EUR",
    vat_rate: 21,
    methods: ["bancontact", "creditcard", "paypal"],
    bundles: [
      { id: 1, credits: 50, amount: 995 },
      { id: 2, credits: 125, amount: 1995, popular: true },
    ],
  },
};

export function site(domain: string, overrides: Partial<SiteSettings> = {}): SiteSettings {
  return v.parse(SiteSettings, {
    name: `Testwave ${domain}`,
    domain,
    domain_language: "nl",
    time_zone: "Europe/Amsterdam",
    cdn_prefix: "/media/",
    niche: 1,
    signups: "all",
    logged_out_search: "all",
    logged_out_search_trafficsource: "all",
    minimum_message_costs: { NL: { costs: 1.5, currency: "EUR" }, BE: { costs: 1.5, currency: "EUR" } },
    support_phone: "+31 20 000 0000",
    support_email: "support@example.com",
    push_public_key: DEVELOPMENT_VAPID.publicKey,
    enable_site_entry_popup: true,
    fictional_icon: "/icons/fictional.svg",
    fictional_warning: texts("Fictional"),
    fictional_singular: texts("fictional profile"),
    fictional_plural: texts("fictional profiles"),
    countries: ["NL", "BE"],
    description: texts("A test site"),
    index_title: texts("Test site"),
    visible_profile_fields: ["gender", "sexuality", "date_of_birth", "interests", "region", "city", "about_me"],
    visible_profile_notes: false,
    message_credits: 5,
    photo_credits: 10,
    gift_credits: 15,
    signup_credits: 10,
    free_conversations: 2,
    free_messages: 3,
    message_length: 2000,
    search_fields: ["gender", "country", "country_region", "min_age", "max_age"],
    refund_days: 14,
    member_resell: false,
    company_id: "testco",
    mail_name: "Testwave",
    pricing: Object.fromEntries(
      (overrides.countries ?? ["NL", "BE"]).map((country) => [country, PRICING[country] ?? PRICING["BE"]]),
    ),
    direct_debit: { outstanding_limit_credits: 300 },
    ...overrides,
  });
}

export async function putSites(...sites: SiteSettings[]) {
  await env.SETTINGS.put(companyKey("testco"), JSON.stringify(COMPANY));
  for (const s of sites) await env.SETTINGS.put(siteKey(s.domain), JSON.stringify(s));
}

/** A birth date that makes someone `age` years old today (and not yet a year older). */
export function birthDateForAge(age: number, today = new Date()): string {
  const d = new Date(Date.UTC(today.getUTCFullYear() - age, today.getUTCMonth(), today.getUTCDate()));
  d.setUTCDate(d.getUTCDate() - 30);
  return d.toISOString().slice(0, 10);
}

export type FixtureProfile = {
  id: number;
  name: string;
  country: string;
  gender: "male" | "female";
  age: number;
  region?: string;
  city?: string;
  lastActiveAt?: number;
  status?: string;
  searchable?: 0 | 1;
  photos?: { status: string; main?: boolean }[];
};

export const REGIONS = [
  { id: 1, country: "NL", code: "NL-NH", name: "Noord-Holland" },
  { id: 2, country: "NL", code: "NL-ZH", name: "Zuid-Holland" },
  { id: 3, country: "BE", code: "BE-VAN", name: "Antwerpen" },
];

const hex = (n: number, variant: string) => (variant + n.toString(16)).padStart(32, "0").slice(-32);

/** R2 keys of a fixture photo: deterministic so tests can ask for them. */
export function photoKeys(photoId: number) {
  return {
    key: `p/${hex(photoId, "a")}.jpg`,
    thumbKey: `t/${hex(photoId, "b")}.jpg`,
    blurKey: `b/${hex(photoId, "c")}.jpg`,
  };
}

/** Empty every table the tests fill, then load regions and the given profiles (each with two interests; the interests come with the migrations). */
export async function loadProfiles(profiles: FixtureProfile[]) {
  const db = env.DB;
  await db.batch(
    ["photos", "profile_interests", "profiles", "users", "regions"].map((t) => db.prepare(`DELETE FROM ${t}`)),
  );
  const statements = REGIONS.map((r) =>
    db
      .prepare("INSERT INTO regions (id, country, code, name) VALUES (?, ?, ?, ?)")
      .bind(r.id, r.country, r.code, r.name),
  );
  let photoId = 1000;
  const objects: string[] = [];
  for (const p of profiles) {
    const regionId = REGIONS.find((r) => r.code === p.region)?.id ?? null;
    statements.push(
      db
        .prepare("INSERT INTO users (id, email, username, status, site_domain) VALUES (?, ?, ?, 'active', 'nl.test')")
        .bind(p.id, `user${p.id}@example.invalid`, `user${p.id}`),
      db
        .prepare(
          "INSERT INTO profiles (id, user_id, name, country, gender, birth_date, region_id, city, status, fictional, searchable, last_active_at, about_me) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)",
        )
        .bind(
          p.id,
          p.id,
          p.name,
          p.country,
          p.gender,
          birthDateForAge(p.age),
          regionId,
          p.city ?? null,
          p.status ?? "active",
          p.searchable ?? 1,
          p.lastActiveAt ?? 1_700_000_000 + p.id,
          `About ${p.name}`,
        ),
      db
        .prepare(
          "INSERT INTO profile_interests (profile_id, interest_id) VALUES (?, (SELECT id FROM interests WHERE slug = 'travel')), (?, (SELECT id FROM interests WHERE slug = 'cooking'))",
        )
        .bind(p.id, p.id),
    );
    for (const [i, photo] of (p.photos ?? []).entries()) {
      photoId++;
      const keys = photoKeys(photoId);
      statements.push(
        db
          .prepare(
            "INSERT INTO photos (id, profile_id, key, thumb_key, blur_key, status, position, width, height) VALUES (?, ?, ?, ?, ?, ?, ?, 480, 600)",
          )
          .bind(photoId, p.id, keys.key, keys.thumbKey, keys.blurKey, photo.status, i),
      );
      if (photo.main)
        statements.push(db.prepare("UPDATE profiles SET main_photo_id = ? WHERE id = ?").bind(photoId, p.id));
      objects.push(keys.key, keys.thumbKey, keys.blurKey);
    }
  }
  await db.batch(statements);
  for (const key of objects)
    await env.PHOTOS.put(key, `bytes of ${key}`, { httpMetadata: { contentType: "image/jpeg" } });
}
