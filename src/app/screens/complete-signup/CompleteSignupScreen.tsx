import { useState } from "react";
import { SiteBrand } from "../../components/SiteBrand";
import { FormMessage } from "../../components/Form";
import { Link } from "../../components/Link";
import { LoginPrompt } from "../../components/LoginPrompt";
import { ResendActivation } from "../../components/ResendActivation";
import { Title } from "../../components/Title";
import { useSettings, useT } from "../../page/page-context";
import { usePushState } from "../../hooks/usePush";
import { useUser } from "../../hooks/useUser";
import { turnOnPush } from "../../service-worker/push-state";
import { AboutForm } from "../../profile-form/AboutForm";
import type { FormFrame } from "../../profile-form/fields";
import { LocationForm } from "../../profile-form/LocationForm";
import { PersonalForm } from "../../profile-form/PersonalForm";
import { useProfileFormData, type ProfileFormData } from "../../profile-form/save";
import { StepForm } from "./StepForm";
import { PhotoStep } from "./PhotoStep";

/** SPEC §2, §4: the signup steps 0 to 4; after them the flow is complete (push opt-in, confirm e-mail). */
const SIGNUP_STEPS = ["message", "photo", "location", "personal", "about"] as const;
type SignupStep = number | "complete";

export function nextStep(step: SignupStep): SignupStep {
  if (step === "complete") return step;
  return step + 1 < SIGNUP_STEPS.length ? step + 1 : "complete";
}

export function previousStep(step: SignupStep): SignupStep {
  if (step === "complete") return SIGNUP_STEPS.length - 1;
  return Math.max(0, step - 1);
}

/** The steps after signup: welcome, photo, location, personal info, about me, then push and the e-mail. */
export default function CompleteSignupScreen() {
  const t = useT();
  const { user } = useUser();
  const [step, setStep] = useState<SignupStep>(0);
  const push = usePushState();
  const settings = useSettings();
  const [pushDone, setPushDone] = useState(false);
  const [pushFailed, setPushFailed] = useState(false);
  const data = useProfileFormData(user ? user.profile.id : null);

  const title = t("routes.complete-signup");
  if (!user) return <LoginPrompt title={title} text={t("login.prompt")} />;

  const askPush = async () => {
    try {
      await turnOnPush(settings.push_public_key, user.profile.id);
    } catch {
      // The push service or the server failed: the member can turn it on later from the push alert.
      setPushFailed(true);
    }
  };
  // Only a browser that can subscribe and is not subscribed yet gets the push step.
  const showPush = step === "complete" && !pushDone && push === "capable";

  return (
    <section className="form-page steps">
      <Title text={title} />
      <SiteBrand />
      <Progress step={step} />
      {step === "complete" ? (
        showPush ? (
          <div className="steps__body">
            <h1>{t("complete_signup.push.title")}</h1>
            <p>{t("complete_signup.push.text")}</p>
            <div className="steps__actions">
              <button type="button" className="button button--ghost" onClick={() => setPushDone(true)}>
                {t("complete_signup.later")}
              </button>
              <button
                type="button"
                className="button button--primary"
                onClick={() => void askPush().then(() => setPushDone(true))}
              >
                {t("complete_signup.push.enable")}
              </button>
            </div>
          </div>
        ) : (
          <div className="steps__body">
            <h1>{t("complete_signup.confirm.title")}</h1>
            {user.status === "not_confirmed" ? (
              <>
                <p>{t("complete_signup.confirm.text", { email: user.email })}</p>
                <ResendActivation />
              </>
            ) : (
              <p>{t("complete_signup.confirm.done")}</p>
            )}
            {push === "subscribed" && pushDone && (
              <p className="form-message form-message--success">{t("complete_signup.push.enabled")}</p>
            )}
            {pushFailed && <p className="form-message form-message--error">{t("push_alert.failed")}</p>}
            <div className="steps__actions">
              <Link href="/signup-matches" className="button button--primary">
                {t("complete_signup.to_members")}
              </Link>
            </div>
          </div>
        )
      ) : (
        <StepBody
          step={step}
          name={user.profile.name}
          data={data}
          onBack={() => setStep(previousStep(step))}
          onNext={() => setStep(nextStep(step))}
        />
      )}
    </section>
  );
}

/** Where the member is: the five steps, done ones marked, and "Step n of 5". */
function Progress({ step }: { step: SignupStep }) {
  const t = useT();
  const current = step === "complete" ? SIGNUP_STEPS.length : step;
  return (
    <div className="steps__progress">
      <ol className="steps__list">
        {SIGNUP_STEPS.map((name, i) => (
          <li
            key={name}
            className={i < current ? "is-done" : i === current ? "is-current" : undefined}
            aria-current={i === current ? "step" : undefined}
          >
            <span className="steps__label">{t(`complete_signup.steps.${name}`)}</span>
          </li>
        ))}
      </ol>
      {step !== "complete" && (
        <p className="steps__count">{t("complete_signup.progress", { step: step + 1, total: SIGNUP_STEPS.length })}</p>
      )}
    </div>
  );
}

/**
 * One of steps 0 to 4. The welcome step is text; the photo step uploads like the profile screen;
 * location, personal info and about me are forms that save through PUT /api/profile.php on "Next",
 * once the member's profile is loaded to prefill them.
 */
function StepBody({
  step,
  name,
  data,
  onBack,
  onNext,
}: {
  step: number;
  name: string;
  data: ProfileFormData;
  onBack: () => void;
  onNext: () => void;
}) {
  const t = useT();
  const settings = useSettings();
  const key = SIGNUP_STEPS[step]!;
  const title = t(`complete_signup.${key}.title`, { name, site: settings.name });
  const text = t(`complete_signup.${key}.text`, { site: settings.name });

  const profileId = data.profile.data?.profile.id;
  if (key === "photo" && profileId !== undefined)
    return <PhotoStep profileId={profileId} title={title} text={text} onBack={onBack} onNext={onNext} />;

  if (key === "location" || key === "personal" || key === "about") {
    const profile = data.profile.data?.profile;
    if (!profile) {
      return (
        <StepForm title={title} text={text} onBack={onBack} onLater={onNext}>
          {data.profile.error ? (
            <FormMessage text={t("errors.try_again_later")} />
          ) : (
            <p aria-busy="true">{t("search.loading")}</p>
          )}
        </StepForm>
      );
    }
    // "Next" saves and moves on; "Later" moves on without saving.
    const frame: FormFrame = (form) => (
      <StepForm title={title} text={text} onBack={onBack} onLater={onNext} {...form} />
    );
    const props = { profile, frame, onSaved: onNext };
    if (key === "location")
      return (
        <LocationForm
          key={key}
          {...props}
          regions={data.regions.data?.regions}
          regionsFailed={Boolean(data.regions.error)}
        />
      );
    if (key === "personal")
      return (
        <PersonalForm
          key={key}
          {...props}
          interests={data.interests.data?.interests}
          interestsFailed={Boolean(data.interests.error)}
        />
      );
    return <AboutForm key={key} {...props} />;
  }

  return (
    <div className="steps__body">
      <h1>{title}</h1>
      <p>{text}</p>
      <div className="steps__actions">
        {step > 0 && (
          <button type="button" className="button button--ghost" onClick={onBack}>
            {t("complete_signup.back")}
          </button>
        )}
        <button type="button" className="button button--primary" onClick={onNext}>
          {step === 0 ? t("complete_signup.next") : t("complete_signup.later")}
        </button>
      </div>
    </div>
  );
}
