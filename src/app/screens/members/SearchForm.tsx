import { useState, type FormEvent } from "react";
import { GENDERS, type Region, type SearchResponse } from "../../../shared/api";
import { MAX_AGE, MIN_AGE } from "../../../shared/ages";
import { regionKind } from "../../../shared/regions";
import { useRouter, useSettings, useT } from "../../page-context";
import { useUser } from "../../hooks/useUser";

type Filters = { gender: string; country: string; country_region: string; min_age: string; max_age: string; verified: string };

/** The filters in the URL, else what the server applied (a member's own country and preference). */
function filtersFrom(query: URLSearchParams, applied: Applied | undefined, defaultCountry: string): Filters {
  return {
    gender: query.get("gender") ?? applied?.gender ?? "any",
    country: query.get("country") ?? applied?.country ?? defaultCountry,
    country_region: query.get("country_region") ?? "",
    min_age: query.get("min_age") ?? "",
    max_age: query.get("max_age") ?? "",
    verified: query.get("verified") === "1" ? "1" : "",
  };
}

/** The search filters of SPEC §2 that the site shows (search_fields); submitting searches through the URL. */
type Applied = SearchResponse["query"];

export function SearchForm({ query, regions, applied }: { query: URLSearchParams; regions: Region[]; applied: Applied | undefined }) {
  const settings = useSettings();
  const t = useT();
  const { navigate } = useRouter();
  const { user } = useUser();
  const [filters, setFilters] = useState(() => filtersFrom(query, applied, settings.geoip_selected_country));
  const shown = new Set(settings.search_fields);
  const set = (name: keyof Filters) => (event: { target: { value: string } }) =>
    setFilters((f) => ({ ...f, [name]: event.target.value, ...(name === "country" ? { country_region: "" } : {}) }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
    if (params.get("country") === settings.geoip_selected_country) params.delete("country");
    // For a visitor everyone is the default already; a member says "any" to override their preference.
    if (!user && params.get("gender") === "any") params.delete("gender");
    const qs = params.toString();
    navigate(`/members${qs ? `?${qs}` : ""}`);
  };
  const clear = () => {
    setFilters(filtersFrom(new URLSearchParams(), undefined, settings.geoip_selected_country));
    navigate("/members");
  };

  const countryRegions = regions.filter((r) => r.country === filters.country);
  return (
    <form className="search-form" onSubmit={submit} role="search" aria-label={t("search.title")}>
      {shown.has("gender") && (
        <label>
          <span>{t("search.gender")}</span>
          <select name="gender" value={filters.gender} onChange={set("gender")}>
            <option value="any">{t("search.gender_any")}</option>
            {GENDERS.map((g) => (
              <option key={g} value={g}>
                {t(`search.gender_${g}`)}
              </option>
            ))}
          </select>
        </label>
      )}
      {shown.has("country") && settings.countries.length > 1 && (
        <label>
          <span>{t("search.country")}</span>
          <select name="country" value={filters.country} onChange={set("country")}>
            {settings.countries.map((c) => (
              <option key={c} value={c}>
                {t(`countries.${c}`)}
              </option>
            ))}
          </select>
        </label>
      )}
      {shown.has("country_region") && (
        <label>
          <span>{t(`regions.${regionKind(filters.country)}`)}</span>
          <select name="country_region" value={filters.country_region} onChange={set("country_region")}>
            <option value="">{t("search.region_any")}</option>
            {countryRegions.map((r) => (
              <option key={r.code} value={r.code}>
                {r.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {shown.has("min_age") && (
        <label>
          <span>{t("search.min_age")}</span>
          <input name="min_age" type="number" inputMode="numeric" min={MIN_AGE} max={MAX_AGE} placeholder={String(MIN_AGE)} value={filters.min_age} onChange={set("min_age")} />
        </label>
      )}
      {shown.has("max_age") && (
        <label>
          <span>{t("search.max_age")}</span>
          <input name="max_age" type="number" inputMode="numeric" min={MIN_AGE} max={MAX_AGE} placeholder={String(MAX_AGE)} value={filters.max_age} onChange={set("max_age")} />
        </label>
      )}
      <label className="search-form__check">
        <input type="checkbox" name="verified" value="1" checked={filters.verified === "1"} onChange={(e) => setFilters((f) => ({ ...f, verified: e.target.checked ? "1" : "" }))} />
        <span>{t("verification.search_filter")}</span>
      </label>
      <div className="search-form__actions">
        <button type="submit" className="button button--primary">
          {t("search.submit")}
        </button>
        <button type="button" className="button button--ghost" onClick={clear}>
          {t("search.clear")}
        </button>
      </div>
    </form>
  );
}
