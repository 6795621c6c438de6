import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { GENDERS, type Region, type SearchResponse } from "../../../shared/api";
import { AGE_RANGE_REVERSED, ageRangeHolds, MAX_AGE, MIN_AGE } from "../../../shared/ages";
import { regionKind } from "../../../shared/regions";
import { useRouter, useSettings, useT } from "../../page/page-context";
import { useUser } from "../../hooks/useUser";

type Filters = {
  gender: string;
  country: string;
  country_region: string;
  min_age: string;
  max_age: string;
  verified: string;
};

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

export function SearchForm({
  query,
  regions,
  applied,
}: {
  query: URLSearchParams;
  regions: Region[];
  applied: Applied | undefined;
}) {
  const settings = useSettings();
  const t = useT();
  const { navigate } = useRouter();
  const { user } = useUser();
  const [filters, setFilters] = useState(() => filtersFrom(query, applied, settings.geoip_selected_country));
  const shown = new Set(settings.search_fields);
  const set = (name: keyof Filters) => (event: { target: { value: string } }) => {
    if (name === "min_age" || name === "max_age") setAgeProblem(false);
    setFilters((f) => ({ ...f, [name]: event.target.value, ...(name === "country" ? { country_region: "" } : {}) }));
  };

  // The server's rule, said before anything is sent (SPEC §5: the form refuses what the server refuses).
  const [ageProblem, setAgeProblem] = useState(false);
  const ageOf = (value: string) => (value === "" ? undefined : Number(value));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ageRangeHolds({ min_age: ageOf(filters.min_age), max_age: ageOf(filters.max_age) })) {
      setAgeProblem(true);
      return;
    }
    setAgeProblem(false);
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
  const active = filtersFrom(query, applied, settings.geoip_selected_country);
  const summary = filterSummary(active, settings.geoip_selected_country, regions, t);
  const [open, setOpen] = useState(false);
  const formId = useId();
  const ageProblemId = `${formId}-age`;
  const opener = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    opener.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape" && open) close();
  };
  return (
    <div className={open ? "search-panel is-open" : "search-panel"}>
      <button
        ref={opener}
        type="button"
        className="search-panel__summary"
        aria-expanded={open}
        aria-controls={formId}
        onClick={() => setOpen(true)}
      >
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
          <path fill="currentColor" d="M3 5h18v2H3V5zm3 6h12v2H6v-2zm4 6h4v2h-4v-2z" />
        </svg>
        <span className="search-panel__label">{t("shell.filters")}</span>
        <span className="search-panel__active">{summary}</span>
      </button>
      {open && <div className="search-panel__backdrop" onClick={close} />}
      <form
        id={formId}
        className="search-form"
        onSubmit={submit}
        onKeyDown={onKeyDown}
        role="search"
        aria-label={t("search.title")}
      >
        <div className="search-panel__head">
          <h2>{t("shell.filters")}</h2>
          <button
            type="button"
            className="icon-button"
            onClick={close}
            aria-label={t("shell.filters_close")}
            title={t("shell.filters_close")}
          >
            <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
              <path
                fill="currentColor"
                d="M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12l5.6 5.6-1.4 1.4-5.6-5.6L6.4 19 5 17.6 10.6 12 5 6.4z"
              />
            </svg>
          </button>
        </div>
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
            <input
              name="min_age"
              type="number"
              inputMode="numeric"
              min={MIN_AGE}
              max={MAX_AGE}
              placeholder={String(MIN_AGE)}
              value={filters.min_age}
              onChange={set("min_age")}
              aria-invalid={ageProblem || undefined}
              aria-describedby={ageProblem ? ageProblemId : undefined}
            />
          </label>
        )}
        {shown.has("max_age") && (
          <label>
            <span>{t("search.max_age")}</span>
            <input
              name="max_age"
              type="number"
              inputMode="numeric"
              min={MIN_AGE}
              max={MAX_AGE}
              placeholder={String(MAX_AGE)}
              value={filters.max_age}
              onChange={set("max_age")}
              aria-invalid={ageProblem || undefined}
              aria-describedby={ageProblem ? ageProblemId : undefined}
            />
          </label>
        )}
        {ageProblem && (
          <p id={ageProblemId} className="field__error" role="alert">
            {t(AGE_RANGE_REVERSED)}
          </p>
        )}
        <label className="search-form__check">
          <input
            type="checkbox"
            name="verified"
            value="1"
            checked={filters.verified === "1"}
            onChange={(e) => setFilters((f) => ({ ...f, verified: e.target.checked ? "1" : "" }))}
          />
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
    </div>
  );
}

/** The active filters in one line ("Women · 25–40 · Utrecht"), as the folded search shows them on phones. */
function filterSummary(
  filters: Filters,
  defaultCountry: string,
  regions: Region[],
  t: (key: string) => string,
): string {
  const parts: string[] = [];
  if (filters.gender !== "any") parts.push(t(`search.gender_${filters.gender}`));
  if (filters.country !== defaultCountry) parts.push(t(`countries.${filters.country}`));
  const region = regions.find((r) => r.code === filters.country_region);
  if (region) parts.push(region.name);
  if (filters.min_age || filters.max_age)
    parts.push(filters.max_age ? `${filters.min_age || MIN_AGE}–${filters.max_age}` : `${filters.min_age}+`);
  if (filters.verified === "1") parts.push(t("verification.search_filter"));
  return parts.length > 0 ? parts.join(" · ") : t("shell.filters_everyone");
}
