import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { i18n } from "i18next";
import type { Language } from "../shared/locales";
import type { CompanyInfo, SiteSettings } from "../shared/settings";
import type * as schema from "./db/schema";
import type { Session } from "./edge/session";
import type { Tracking } from "./edge/tracking";

export type Database = DrizzleD1Database<typeof schema>;

/** Everything a handler may read about the request once the edge middleware has run. */
export type AppVariables = {
  requestId: string;
  site: SiteSettings;
  company: CompanyInfo | null;
  /** Country of the visitor (geoip), null when unknown. */
  country: string | null;
  locale: Language;
  trafficSource: Tracking | null;
  t: i18n["t"];
  db: Database;
  /** The signed-in member, or null for a visitor. */
  session: Session | null;
  /** Set by the security-headers middleware; the renderer puts it on its inline scripts. */
  secureHeadersNonce?: string;
};

export type AppEnv = { Bindings: Env; Variables: AppVariables };
