import { useState } from "react";
import type { Region } from "../../shared/api";
import { CITY_MAX, type ProfileUpdateBody } from "../../shared/profile";
import { regionKind } from "../../shared/regions";
import { FormMessage, TextField } from "../components/Form";
import { useT } from "../page/page-context";
import { SelectField, type ProfileFormProps } from "./fields";
import { GeolocationDenied, locate, useGeolocationPermission } from "./geolocation";
import { useProfileSave } from "./save";

const FIELDS = ["region", "city"] as const;

/**
 * The member's location: the region of their own country (named as that country names them:
 * province, state, canton ...) and the city. Saving sends what changed. Where the browser has
 * geolocation, a button fills both from the member's position (SPEC §3, §7 geocode).
 */
export function LocationForm({
  profile,
  regions,
  regionsFailed,
  frame,
  onSaved,
  onEdit,
}: ProfileFormProps & { regions: Region[] | undefined; regionsFailed: boolean }) {
  const t = useT();
  const initial: ProfileUpdateBody = { region: profile.region_code, city: profile.city };
  const [region, setRegion] = useState(profile.region_code ?? "");
  const [city, setCity] = useState(profile.city ?? "");
  const { form, save, edit } = useProfileSave(FIELDS, profile.id, initial, { onSaved, onEdit });
  const { errors } = form;

  const ownRegions = regions?.filter((r) => r.country === profile.country);
  const [permission, setPermission] = useGeolocationPermission();
  const [locating, setLocating] = useState(false);
  const [geoMessage, setGeoMessage] = useState<{ text: string; tone: "error" | "success" } | null>(null);

  const geolocate = async () => {
    if (locating) return;
    setLocating(true);
    setGeoMessage(null);
    try {
      const place = await locate();
      const found =
        place.country === profile.country
          ? place.region && ownRegions?.find((r) => r.code === place.region!.code)
          : undefined;
      if (found) {
        setRegion(found.code);
        edit("region");
      }
      setCity(place.city);
      edit("city");
      setGeoMessage({ text: t("profile_edit.location.geolocate_found", { city: place.city }), tone: "success" });
    } catch (error) {
      if (error instanceof GeolocationDenied) {
        setPermission("denied");
        setGeoMessage({ text: t("profile_edit.location.geolocate_denied"), tone: "error" });
      } else {
        setGeoMessage({ text: t("profile_edit.location.geolocate_failed"), tone: "error" });
      }
    } finally {
      setLocating(false);
    }
  };

  const submit = () => void save({ region: region || null, city: city.trim() || null });

  return frame({
    busy: form.busy,
    message: errors.message,
    onSubmit: submit,
    children: (
      <>
        {permission !== "unsupported" && (
          <div className="geolocate" data-permission={permission}>
            <button
              type="button"
              className="button button--ghost"
              disabled={locating}
              aria-busy={locating || undefined}
              onClick={() => void geolocate()}
            >
              {locating ? t("profile_edit.location.geolocating") : t("profile_edit.location.geolocate")}
            </button>
            {permission === "denied" && !geoMessage && (
              <p className="field__hint">{t("profile_edit.location.geolocate_blocked")}</p>
            )}
            <FormMessage text={geoMessage?.text} tone={geoMessage?.tone} />
          </div>
        )}
        {/* Without regions (none for this country, or the list failed to load) the city is still asked. */}
        {!regionsFailed && ownRegions?.length !== 0 && (
          <SelectField
            label={t(`regions.${regionKind(profile.country)}`)}
            name="region"
            value={region}
            error={errors.fields.region}
            disabled={!ownRegions}
            onChange={(value) => {
              setRegion(value);
              edit("region");
            }}
          >
            <option value="">{ownRegions ? t("complete_signup.choose") : t("search.loading")}</option>
            {ownRegions?.map((r) => (
              <option key={r.code} value={r.code}>
                {r.name}
              </option>
            ))}
          </SelectField>
        )}
        <TextField
          label={t("profile.city")}
          name="city"
          autoComplete="address-level2"
          maxLength={CITY_MAX}
          value={city}
          error={errors.fields.city}
          onChange={(event) => {
            setCity(event.target.value);
            edit("city");
          }}
        />
      </>
    ),
  });
}
