import { useState } from "react";
import useSWR from "swr";
import type { ProfileResponse } from "../../../shared/api";
import { ErrorPage } from "../../components/ErrorPage";
import { NextStepNotice } from "../../components/NextStepNotice";
import { SignupForm } from "../../components/SignupForm";
import { SiteBrand } from "../../components/SiteBrand";
import { Title } from "../../components/Title";
import { useSettings, useT } from "../../page/page-context";
import { useUser } from "../../hooks/useUser";
import { profileKey } from "../../page/page-data";
import type { ScreenProps } from "../../page/page-state";
import type { ApiRequestError } from "../../page/api";

/**
 * Sign up (SPEC §2): /signup, /signup-matches (a heading about matches) and /members/{id}/signup,
 * which names the member and lets the visitor write them a first message.
 */
export default function SignupScreen({ params, routeName }: ScreenProps) {
  const t = useT();
  const settings = useSettings();
  const { user } = useUser();
  // Set when this visitor just signed up here: the form stays until /complete-signup shows.
  const [joined, setJoined] = useState(false);
  const id = routeName === "members-id-signup" ? params.id : undefined;
  const { data, error } = useSWR<ProfileResponse, ApiRequestError>(id ? profileKey(id) : null);

  if (error)
    return <ErrorPage error={{ status: error.status, message: error.status === 404 ? null : error.message }} />;
  const profile = data?.profile ?? null;
  const title =
    routeName === "signup-matches"
      ? t("signup.title_matches")
      : profile
        ? t("signup.title_member", { name: profile.name })
        : t("signup.title");
  const intro = routeName === "signup-matches" ? t("signup.intro_matches") : t("signup.intro");
  const image = profile?.main_image;

  return (
    <section className="form-page signup">
      <Title text={title} />
      <SiteBrand />
      {image && profile && (
        <img
          className="signup__avatar"
          src={settings.cdn_prefix + image.thumb_filename}
          alt={profile.name}
          width={96}
          height={120}
        />
      )}
      <h1>{title}</h1>
      {user && !joined ? (
        <NextStepNotice
          text={t("login.already", { name: user.profile.name })}
          href={profile ? `/members/${profile.id}` : "/members"}
          action={profile ? t("profile.message") : t("nav.search_members")}
        />
      ) : (
        <>
          <p className="signup__intro">{intro}</p>
          {(!id || profile) && (
            <SignupForm
              profile={profile ? { id: profile.id, name: profile.name } : null}
              onLeave={() => setJoined(true)}
            />
          )}
        </>
      )}
    </section>
  );
}
