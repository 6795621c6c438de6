import { useState } from "react";
import useSWR from "swr";
import type { InterestsResponse, RegionsResponse } from "../../../shared/api";
import { MAX_AGE, MIN_AGE } from "../../../shared/ages";
import { MATCH_FINDER_MAX_INTERESTS, type MatchFinderResponse } from "../../../shared/likes";
import type { ApiRequestError } from "../../page/api";
import { CardLike } from "../../components/LikeButton";
import { LoginPrompt } from "../../components/LoginPrompt";
import { ProfileCard } from "../../components/ProfileCard";
import { Title } from "../../components/Title";
import { useT } from "../../page/page-context";
import { ListPending } from "./ListPending";
import { useUser } from "../../hooks/useUser";
import { REGIONS_KEY } from "../../page/page-data";

const STEPS = 4;
type Answers = {
  gender: "female" | "male" | "any";
  minAge: number;
  maxAge: number;
  region: string;
  interests: string[];
};

/** The finder's answers as the query of GET /api/match-finder.php. */
function matchFinderKey(a: Answers): string {
  const params = new URLSearchParams({ gender: a.gender, min_age: String(a.minAge), max_age: String(a.maxAge) });
  if (a.region) params.set("country_region", a.region);
  if (a.interests.length) params.set("interests", a.interests.join(","));
  return `/api/match-finder.php?${params}`;
}

function Results({ answers, restart }: { answers: Answers; restart: () => void }) {
  const t = useT();
  const { data, error } = useSWR<MatchFinderResponse, ApiRequestError>(matchFinderKey(answers));
  return (
    <section>
      <h2>{t("match_finder.results")}</h2>
      {error || !data ? (
        <ListPending error={error} />
      ) : data.profiles.length === 0 ? (
        <p className="notice">{t("match_finder.none")}</p>
      ) : (
        <ul className="profile-grid">
          {data.profiles.map((p) => (
            <ProfileCard key={p.id} profile={p}>
              {p.shared_interests > 0 && (
                <span className="match-finder__shared">{t("match_finder.shared", { count: p.shared_interests })}</span>
              )}
              <CardLike profile={p} />
            </ProfileCard>
          ))}
        </ul>
      )}
      <button type="button" className="button button--ghost" onClick={restart}>
        {t("match_finder.restart")}
      </button>
    </section>
  );
}

/** The match-finder (SPEC §2): whom, age range, region and a few interests, then a ranked list with like buttons. */
export default function MatchFinderScreen() {
  const t = useT();
  const { user } = useUser();
  const [step, setStep] = useState(1);
  const [answers, setAnswers] = useState<Answers>({
    gender: "any",
    minAge: MIN_AGE,
    maxAge: 50,
    region: "",
    interests: [],
  });
  const regions = useSWR<RegionsResponse>(user ? REGIONS_KEY : null);
  const interests = useSWR<InterestsResponse>(user && step === 4 ? "/api/interests.php" : null);
  if (!user) return <LoginPrompt title={t("routes.match-finder")} text={t("login_needed.like")} />;
  const set = (change: Partial<Answers>) => setAnswers((a) => ({ ...a, ...change }));
  const ages = Array.from({ length: MAX_AGE - MIN_AGE + 1 }, (_, i) => MIN_AGE + i);

  return (
    <section className="match-finder">
      <Title text={t("routes.match-finder")} />
      <h1>{t("routes.match-finder")}</h1>
      {step > STEPS ? (
        <Results answers={answers} restart={() => setStep(1)} />
      ) : (
        <form
          className="match-finder__step"
          onSubmit={(event) => {
            event.preventDefault();
            setStep(step + 1);
          }}
        >
          <p>{t("match_finder.intro")}</p>
          <p className="match-finder__count">{t("match_finder.step", { step, total: STEPS })}</p>
          {step === 1 && (
            <fieldset>
              <legend>{t("match_finder.whom")}</legend>
              {(["female", "male", "any"] as const).map((g) => (
                <label key={g} className="choice">
                  <input
                    type="radio"
                    name="gender"
                    checked={answers.gender === g}
                    onChange={() => set({ gender: g })}
                  />{" "}
                  {t(`match_finder.genders.${g}`)}
                </label>
              ))}
            </fieldset>
          )}
          {step === 2 && (
            <fieldset>
              <legend>{t("match_finder.age")}</legend>
              <label>
                {t("match_finder.min_age")}{" "}
                <select
                  value={answers.minAge}
                  onChange={(e) =>
                    set({ minAge: Number(e.target.value), maxAge: Math.max(answers.maxAge, Number(e.target.value)) })
                  }
                >
                  {ages.map((a) => (
                    <option key={a}>{a}</option>
                  ))}
                </select>
              </label>{" "}
              <label>
                {t("match_finder.max_age")}{" "}
                <select value={answers.maxAge} onChange={(e) => set({ maxAge: Number(e.target.value) })}>
                  {ages
                    .filter((a) => a >= answers.minAge)
                    .map((a) => (
                      <option key={a}>{a}</option>
                    ))}
                </select>
              </label>
            </fieldset>
          )}
          {step === 3 && (
            <fieldset>
              <legend>{t("match_finder.region")}</legend>
              <select
                value={answers.region}
                onChange={(e) => set({ region: e.target.value })}
                aria-label={t("match_finder.region")}
              >
                <option value="">{t("match_finder.any_region")}</option>
                {(regions.data?.regions ?? []).map((r) => (
                  <option key={r.code} value={r.code}>
                    {r.name} ({t(`countries.${r.country}`)})
                  </option>
                ))}
              </select>
            </fieldset>
          )}
          {step === 4 && (
            <fieldset>
              <legend>{t("match_finder.interests", { count: MATCH_FINDER_MAX_INTERESTS })}</legend>
              <div className="chips">
                {(interests.data?.interests ?? []).map((i) => {
                  const checked = answers.interests.includes(i.slug);
                  return (
                    <label key={i.slug} className="choice">
                      <input
                        type="checkbox"
                        checked={checked}
                        disabled={!checked && answers.interests.length >= MATCH_FINDER_MAX_INTERESTS}
                        onChange={() =>
                          set({
                            interests: checked
                              ? answers.interests.filter((s) => s !== i.slug)
                              : [...answers.interests, i.slug],
                          })
                        }
                      />{" "}
                      {i.name}
                    </label>
                  );
                })}
              </div>
            </fieldset>
          )}
          <div className="modal__actions">
            {step > 1 && (
              <button type="button" className="button button--ghost" onClick={() => setStep(step - 1)}>
                {t("match_finder.back")}
              </button>
            )}
            <button type="submit" className="button button--primary">
              {step === STEPS ? t("match_finder.find") : t("match_finder.next")}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
