import { useId, useState } from "react";
import type { Region } from "../../../shared/api";
import { CITY_MAX, type ProfileUpdateBody } from "../../../shared/profile";
import { regionKind } from "../../../shared/regions";
import { FieldError } from "../../components/Form";
import { useT } from "../../context";
import { useProfileStep } from "./profile-save";
import { SelectField, StepForm, type ProfileStepProps } from "./StepForm";

const FIELDS = ["region", "city"] as const;

/**
 * Step 2: the region of the member's own country (named as that country names them: province,
 * state, canton ...) and the city. "Next" saves both; "Later" moves on without saving.
 */
export function LocationStep({ title, text, profile, regions, regionsFailed, onBack, onNext }: ProfileStepProps & { regions: Region[] | undefined; regionsFailed: boolean }) {
  const t = useT();
  const cityId = useId();
  const initial: ProfileUpdateBody = { region: profile.region_code, city: profile.city };
  const [region, setRegion] = useState(profile.region_code ?? "");
  const [city, setCity] = useState(profile.city ?? "");
  const { form, save } = useProfileStep(FIELDS, profile.id, initial, onNext);
  const { errors } = form;

  const ownRegions = regions?.filter((r) => r.country === profile.country);
  const submit = () => void save({ region: region || null, city: city.trim() || null });

  return (
    <StepForm title={title} text={text} busy={form.busy} message={errors.message} onBack={onBack} onLater={onNext} onSubmit={submit}>
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
            form.clearField("region");
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
      <div className={errors.fields.city ? "field field--error" : "field"}>
        <label htmlFor={cityId} className="field__label">
          {t("profile.city")}
        </label>
        <input
          id={cityId}
          name="city"
          className="field__input"
          autoComplete="address-level2"
          maxLength={CITY_MAX}
          value={city}
          aria-invalid={errors.fields.city ? true : undefined}
          aria-describedby={errors.fields.city ? `${cityId}-error` : undefined}
          onChange={(event) => {
            setCity(event.target.value);
            form.clearField("city");
          }}
        />
        <FieldError id={`${cityId}-error`} text={errors.fields.city} />
      </div>
    </StepForm>
  );
}
