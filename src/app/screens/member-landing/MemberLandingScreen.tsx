import useSWR from "swr";
import type { ProfileResponse } from "../../../shared/api";
import type { ApiRequestError } from "../../page/api";
import { ErrorPage } from "../../components/ErrorPage";
import { Link } from "../../components/Link";
import { LockIcon } from "../../components/LockIcon";
import { MemberName } from "../landers/parts";
import { Title } from "../../components/Title";
import { useT } from "../../page/page-context";
import { useUser } from "../../hooks/useUser";
import { withTracking, type LanderVariant } from "../../../shared/landers";
import { landingProfileKey } from "../../page/page-data";
import type { ScreenProps } from "../../page/page-state";
import "../landers/landers.css";

/** How much of the member's own words the teaser shows. */
const TEASER_LENGTH = 160;

function teaser(text: string | null): string | null {
  if (!text) return null;
  return text.length <= TEASER_LENGTH ? text : `${text.slice(0, TEASER_LENGTH).replace(/\s+\S*$/, "")}…`;
}

/**
 * Member landing pages (SPEC §2): one member presented three ways (a profile card, a photo hero, a
 * chat opening), each leading to the signup's message step for exactly this member
 * (/members/{id}/signup) with the traffic source kept. Photos as the visitor may see them. Only a
 * fictional profile or a member who chose it has one (docs/decisions/0052); the headline claims
 * nothing about the member, and the only words shown as theirs are their own profile text.
 */
export default function MemberLandingScreen({ params, query, routeName }: ScreenProps) {
  const t = useT();
  const { user } = useUser();
  const { data, error } = useSWR<ProfileResponse, ApiRequestError>(landingProfileKey(params.id!));
  if (error)
    return <ErrorPage error={{ status: error.status, message: error.status === 404 ? null : error.message }} />;
  if (!data) return <p aria-busy="true">{t("search.loading")}</p>;

  const { profile, photos } = data;
  const variant = params.slug as LanderVariant | undefined;
  const style =
    routeName === "members-id-landing" ? "card" : routeName === "members-id-landing2-slug" ? "hero" : "chat";
  const headline = variant ? t(`landers.variants.${variant}`) : t(`landers.member.${style}`, { name: profile.name });
  // A member who is already in goes straight to the chat; a visitor signs up to write this member.
  const target = user ? `/members/${profile.id}/chat` : withTracking(`/members/${profile.id}/signup`, query);
  const main = photos.find((p) => p.main) ?? photos[0];
  const place = [profile.city, profile.region].filter(Boolean).join(", ");
  const about = teaser(profile.about_me);

  return (
    <section className={`member-landing member-landing--${style} lander-theme--${variant ?? "default"}`}>
      <Title text={headline} />
      <h1>{headline}</h1>
      <div className="member-landing__body">
        {main && (
          <img
            className="member-landing__photo"
            src={main.image}
            alt={profile.name}
            width={480}
            height={600}
            fetchPriority="high"
            decoding="async"
          />
        )}
        <div className="member-landing__text">
          <MemberName profile={profile} as="p" className="member-landing__name" />
          {place && <p className="lander-town">{place}</p>}
          {style === "chat" ? (
            <div className="chat-teaser">
              {/* Only the member's own words: none are put in their mouth. */}
              {about && <p className="chat-teaser__bubble">{about}</p>}
              <Link href={target} className="chat-teaser__input">
                {t("landers.member.write", { name: profile.name })}
              </Link>
            </div>
          ) : (
            about && <blockquote className="member-landing__about">{about}</blockquote>
          )}
          {style === "hero" && profile.interests.length > 0 && (
            <ul className="member-landing__interests" aria-label={t("landers.member.interests")}>
              {profile.interests.slice(0, 6).map((interest) => (
                <li key={interest.slug} className="chip">
                  {interest.name}
                </li>
              ))}
            </ul>
          )}
          <Link href={target} className="button button--primary lander-cta">
            {t("landers.member.cta", { name: profile.name })}
          </Link>
        </div>
      </div>
      {photos.length > 1 && (
        <ul className="member-landing__thumbs" aria-label={t("landers.member.photos", { name: profile.name })}>
          {photos
            .filter((p) => p !== main)
            .slice(0, 6)
            .map((photo) => (
              <li key={photo.id}>
                <Link
                  href={target}
                  className="member-landing__thumb"
                  aria-label={photo.locked ? t("landers.member.locked") : profile.name}
                >
                  <img src={photo.thumb} alt="" width={96} height={120} loading="lazy" decoding="async" />
                  {photo.locked && <LockIcon />}
                </Link>
              </li>
            ))}
        </ul>
      )}
    </section>
  );
}
