import { useId, useState } from "react";
import {
  BODY_TYPES,
  EYE_COLORS,
  HAIR_COLORS,
  RELATIONSHIP_STATUSES,
  SEXUALITIES,
  TATTOOS,
  type Interest,
} from "../../shared/api";
import { INTERESTS_MAX, type ProfileUpdateBody } from "../../shared/profile";
import { FieldError } from "../components/Form";
import { useT } from "../page/page-context";
import { SelectField, type ProfileFormProps } from "./fields";
import { useProfileSave } from "./save";

type Sexuality = (typeof SEXUALITIES)[number];
type Choices = {
  relationship_status: (typeof RELATIONSHIP_STATUSES)[number] | null;
  body_type: (typeof BODY_TYPES)[number] | null;
  hair_color: (typeof HAIR_COLORS)[number] | null;
  eye_color: (typeof EYE_COLORS)[number] | null;
  tattoos: (typeof TATTOOS)[number] | null;
};

const FIELDS = [
  "sexuality",
  "relationship_status",
  "body_type",
  "hair_color",
  "eye_color",
  "tattoos",
  "interests",
] as const;

/** The sexualities that fit a gender: lesbian is for women, gay for men. */
function sexualitiesFor(gender: string): Sexuality[] {
  return SEXUALITIES.filter((s) => !(s === "lesbian" && gender !== "female") && !(s === "gay" && gender !== "male"));
}

/** The optional selects: field, the values it offers, and the profile.* key of their texts. */
const SELECTS: { name: keyof Choices; values: readonly string[]; texts: string }[] = [
  { name: "relationship_status", values: RELATIONSHIP_STATUSES, texts: "relationship_statuses" },
  { name: "body_type", values: BODY_TYPES, texts: "body_types" },
  { name: "hair_color", values: HAIR_COLORS, texts: "hair_colors" },
  { name: "eye_color", values: EYE_COLORS, texts: "eye_colors" },
  { name: "tattoos", values: TATTOOS, texts: "tattoo_levels" },
];

const known = <T extends string>(values: readonly T[], value: string | null): T | null =>
  (values as readonly string[]).includes(value ?? "") ? (value as T) : null;

/**
 * Personal info: sexuality (only the ones that fit the member's gender), relationship status, looks
 * and interests (toggle chips, up to 20). Saving sends what changed.
 */
export function PersonalForm({
  profile,
  interests,
  interestsFailed,
  frame,
  onSaved,
  onEdit,
}: ProfileFormProps & { interests: Interest[] | undefined; interestsFailed: boolean }) {
  const t = useT();
  const interestsId = useId();
  const sexualities = sexualitiesFor(profile.gender);
  const initialChoices: Choices = {
    relationship_status: known(RELATIONSHIP_STATUSES, profile.relationship_status),
    body_type: known(BODY_TYPES, profile.body_type),
    hair_color: known(HAIR_COLORS, profile.hair_color),
    eye_color: known(EYE_COLORS, profile.eye_color),
    tattoos: known(TATTOOS, profile.tattoos),
  };
  const initialSexuality = known(sexualities, profile.sexuality) ?? "hetero";
  const initialInterests = profile.interests.map((i) => i.slug);
  const initial: ProfileUpdateBody = {
    sexuality: known(sexualities, profile.sexuality) ?? undefined,
    ...initialChoices,
    interests: initialInterests,
  };

  const [sexuality, setSexuality] = useState<Sexuality>(initialSexuality);
  const [choices, setChoices] = useState<Choices>(initialChoices);
  const [chosen, setChosen] = useState<string[]>(initialInterests);
  const { form, save, edit } = useProfileSave(FIELDS, profile.id, initial, { onSaved, onEdit });
  const { errors } = form;

  const toggle = (slug: string) => {
    setChosen((current) =>
      current.includes(slug)
        ? current.filter((s) => s !== slug)
        : current.length < INTERESTS_MAX
          ? [...current, slug]
          : current,
    );
    edit("interests");
  };
  const full = chosen.length >= INTERESTS_MAX;
  // Interests only go along once the list is there (the member saw and could change them).
  const submit = () => void save({ sexuality, ...choices, ...(interests ? { interests: chosen } : {}) });

  return frame({
    busy: form.busy,
    message: errors.message,
    onSubmit: submit,
    children: (
      <>
        <div className="steps__grid">
          <SelectField
            label={t("profile.sexuality")}
            name="sexuality"
            value={sexuality}
            error={errors.fields.sexuality}
            onChange={(value) => {
              setSexuality(known(sexualities, value) ?? initialSexuality);
              edit("sexuality");
            }}
          >
            {sexualities.map((s) => (
              <option key={s} value={s}>
                {t(`profile.sexualities.${s}`)}
              </option>
            ))}
          </SelectField>
          {SELECTS.map(({ name, values, texts }) => (
            <SelectField
              key={name}
              label={t(`profile.${name}`)}
              name={name}
              value={choices[name] ?? ""}
              error={errors.fields[name]}
              onChange={(value) => {
                setChoices((current) => ({ ...current, [name]: value || null }));
                edit(name);
              }}
            >
              <option value="">{t("complete_signup.choose")}</option>
              {values.map((v) => (
                <option key={v} value={v}>
                  {t(`profile.${texts}.${v}`)}
                </option>
              ))}
            </SelectField>
          ))}
        </div>
        <fieldset
          className={errors.fields.interests ? "field field--error" : "field"}
          aria-describedby={`${interestsId}-hint`}
        >
          <legend className="field__label">
            {t("profile.interests")} <span className="steps__count-badge">{`${chosen.length}/${INTERESTS_MAX}`}</span>
          </legend>
          <p id={`${interestsId}-hint`} className="field__hint">
            {t("complete_signup.personal.interests_hint", { count: INTERESTS_MAX })}
          </p>
          {interests ? (
            <ul className="chip-toggles">
              {interests.map((interest) => {
                const on = chosen.includes(interest.slug);
                return (
                  <li key={interest.slug}>
                    <button
                      type="button"
                      className="chip-toggle"
                      aria-pressed={on}
                      disabled={!on && full}
                      onClick={() => toggle(interest.slug)}
                    >
                      {interest.name}
                    </button>
                  </li>
                );
              })}
            </ul>
          ) : (
            <p className="field__hint" aria-busy={!interestsFailed}>
              {interestsFailed ? t("errors.try_again_later") : t("search.loading")}
            </p>
          )}
          <FieldError text={errors.fields.interests} />
        </fieldset>
      </>
    ),
  });
}
