import type { Translate } from "../shared/translator";
import type { Language } from "../shared/locales";
import type { CompanyInfo, SiteSettings } from "../shared/settings";
import type { Database } from "./db/database";

/** The signed-in member: the session, the account's status and what search and blocking need of the profile. */
export type Session = {
  id: string;
  userId: number;
  status: string;
  profileId: number;
  gender: string;
  sexuality: string;
  country: string;
  /** The id the sessions list knows this session by (the row id stays in the cookie). */
  publicId: string | null;
  lastUsedAt: number | null;
};

type TrackingField = "network" | "ref" | "sub1" | "sub2" | "sub3";
/** The traffic source a visitor came with (see edge/tracking.ts). */
export type Tracking = Partial<Record<TrackingField, string>>;

/** Everything a handler may read about the request once the edge middleware has run. */
type AppVariables = {
  requestId: string;
  site: SiteSettings;
  company: CompanyInfo | null;
  /** Country of the visitor (geoip), null when unknown. */
  country: string | null;
  locale: Language;
  trafficSource: Tracking | null;
  t: Translate;
  db: Database;
  /** The signed-in member, or null for a visitor. */
  session: Session | null;
  /** Set by the security-headers middleware; the renderer puts it on its inline scripts. */
  secureHeadersNonce?: string;
};

export type AppEnv = { Bindings: Env; Variables: AppVariables };
