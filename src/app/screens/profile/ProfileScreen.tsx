import type { ProfileResponse } from "../../../shared/api";
import { Pending } from "../../components/Pending";
import { Link } from "../../components/Link";
import { LoginPrompt } from "../../components/LoginPrompt";
import { Title } from "../../components/Title";
import { usePage, useT } from "../../page/page-context";
import { useUser } from "../../hooks/useUser";
import { AboutForm } from "../../profile-form/AboutForm";
import { LocationForm } from "../../profile-form/LocationForm";
import { PersonalForm } from "../../profile-form/PersonalForm";
import { useProfileFormData, type ProfileFormData } from "../../profile-form/save";
import { EditSection } from "./EditSection";
import { PhotosSection } from "./PhotosSection";
import { VerificationSection } from "./VerificationSection";

/** A date of birth (YYYY-MM-DD) as the page's language writes it; the date itself, whatever the time zone. */
function formatBirthDate(date: string, locale: string): string {
  const parsed = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime())) return date;
  try {
    return new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(parsed);
  } catch {
    return date;
  }
}

/**
 * My profile (route profile, SPEC §2 profile edit): the member's photos, location, personal info and
 * about me, each section saving on its own through PUT /api/profile.php. Gender and date of birth
 * were set at signup and are shown read-only. A visitor gets the login prompt.
 */
export default function ProfileScreen() {
  const t = useT();
  const { user } = useUser();
  const data = useProfileFormData(user ? user.profile.id : null);
  const title = t("routes.profile");
  if (!user) return <LoginPrompt title={title} text={t("profile_edit.login_prompt")} />;

  const answer = data.profile.data;
  return (
    <section className={user.paid_user ? "profile-edit profile-edit--premium" : "profile-edit"}>
      <Title text={title} />
      <h1>
        {title}
        {user.paid_user && <span className="badge badge--premium">{t("payments.premium_badge")}</span>}
      </h1>
      <p className="profile-edit__intro">
        {t("profile_edit.intro")} <Link href={`/members/${user.profile.id}`}>{t("profile_edit.view")}</Link>
      </p>
      {answer ? (
        <Sections answer={answer} data={data} />
      ) : (
        <Pending
          failed={Boolean(data.profile.error)}
          retry={() => void data.profile.mutate()}
          className="profile-edit__section"
        />
      )}
    </section>
  );
}

function Sections({ answer, data }: { answer: ProfileResponse; data: ProfileFormData }) {
  const t = useT();
  const { locale } = usePage();
  const { profile, photos } = answer;

  return (
    <>
      <PhotosSection profile={profile} photos={photos} />
      <VerificationSection />
      <section className="profile-edit__section" aria-labelledby="profile-edit-basics">
        <h2 id="profile-edit-basics">{t("profile_edit.basics.title")}</h2>
        <dl className="profile-edit__facts">
          <div>
            <dt>{t("profile.gender")}</dt>
            <dd>{t(`profile.genders.${profile.gender}`)}</dd>
          </div>
          <div>
            <dt>{t("profile_edit.basics.date_of_birth")}</dt>
            <dd>{formatBirthDate(profile.birth_date, locale)}</dd>
          </div>
          <div>
            <dt>{t("profile.age")}</dt>
            <dd>{profile.age}</dd>
          </div>
        </dl>
        <p className="field__hint">{t("profile_edit.basics.hint")}</p>
      </section>
      <EditSection
        id="location"
        title={t("profile_edit.location.title")}
        intro={
          <dl className="profile-edit__facts">
            <div>
              <dt>{t("profile_edit.location.country")}</dt>
              <dd>{t(`countries.${profile.country}`)}</dd>
            </div>
          </dl>
        }
      >
        {(props) => (
          <LocationForm
            {...props}
            profile={profile}
            regions={data.regions.data?.regions}
            regionsFailed={Boolean(data.regions.error)}
          />
        )}
      </EditSection>
      <EditSection id="personal-info" title={t("profile_edit.personal.title")}>
        {(props) => (
          <PersonalForm
            {...props}
            profile={profile}
            interests={data.interests.data?.interests}
            interestsFailed={Boolean(data.interests.error)}
          />
        )}
      </EditSection>
      <EditSection id="about-me" title={t("profile_edit.about.title")}>
        {(props) => <AboutForm {...props} profile={profile} />}
      </EditSection>
    </>
  );
}
