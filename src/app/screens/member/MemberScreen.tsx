import { VerifiedBadge } from "../../components/VerifiedBadge";
import { useEffect, useState } from "react";
import useSWR from "swr";
import type { ProfileResponse } from "../../../shared/api";
import type { PROFILE_FIELDS } from "../../../shared/settings";
import { ApiRequestError } from "../../page/api";
import { ErrorPage } from "../../components/ErrorPage";
import { Link } from "../../components/Link";
import { ReportButton } from "../../components/ReportButton";
import { CamPromotion } from "../../components/CamPromotion";
import { InitialsPortrait } from "../../components/InitialsPortrait";
import { LockIcon } from "../../components/LockIcon";
import { PremiumBadge } from "../../components/PremiumBadge";
import { FictionalMark, ProfileGrid } from "../../components/ProfileCard";
import { useSignupModal } from "../../components/SignupModal";
import { Title } from "../../components/Title";
import { useSettings, useT } from "../../page/page-context";
import { useUser } from "../../hooks/useUser";
import { profileKey } from "../../page/page-data";
import type { ScreenProps } from "../../page/page-state";
import { BlockButton } from "./BlockButton";
import { LikeButton } from "../../components/LikeButton";
import { GiftButton } from "./GiftButton";
import { MatchNotice } from "../likes/MatchNotice";
import { useReloadLikes } from "../../hooks/useLikes";

type Field = (typeof PROFILE_FIELDS)[number];

/**
 * A member's profile (SPEC §2): main image, thumbnails (locked ones blurred), details, related
 * profiles. A visitor who wants to message or see a locked photo gets the signup modal (SPEC §6).
 */
export default function MemberScreen({ params }: ScreenProps) {
  const settings = useSettings();
  const t = useT();
  const { user } = useUser();
  const { openSignup } = useSignupModal();
  const { data, error, mutate } = useSWR<ProfileResponse, ApiRequestError>(profileKey(params.id!));
  const [selected, setSelected] = useState<number | null>(null);
  const [matched, setMatched] = useState(false);
  const reloadLikes = useReloadLikes();
  const likedMe = data?.viewer?.liked_me ?? false;
  // Opening a liker's profile cleared its new mark on the server: the badge follows.
  const likerId = likedMe ? data?.profile.id : undefined;
  useEffect(() => {
    if (likerId !== undefined) void reloadLikes();
  }, [likerId, reloadLikes]);

  if (error)
    return <ErrorPage error={{ status: error.status, message: error.status === 404 ? null : error.message }} />;
  if (!data)
    return (
      <p className="notice" aria-busy="true">
        {t("search.loading")}
      </p>
    );

  const { profile, photos, related } = data;
  // An invisible member (docs/decisions/0051): no like, and a chat only where they wrote to the viewer.
  const canLike = data.viewer?.can_like !== false;
  const canMessage = data.viewer?.can_message !== false && !(data.invisible && !data.viewer);
  const invisibleNote =
    data.invisible && !data.viewer?.own
      ? t(canMessage ? "profile.invisible_chat" : "profile.invisible_closed", { name: profile.name })
      : null;
  const shown = photos.find((p) => p.id === selected) ?? photos.find((p) => p.main) ?? photos[0];
  const visible = new Set<Field>(settings.visible_profile_fields);
  const warning =
    settings.fictional_warning[settings.locale as keyof typeof settings.fictional_warning] ??
    t("profile.fictional_warning");
  const details: [Field, string, string | null][] = [
    ["gender", t("profile.gender"), t(`profile.genders.${profile.gender}`)],
    ["sexuality", t("profile.sexuality"), t(`profile.sexualities.${profile.sexuality}`)],
    ["date_of_birth", t("profile.age"), String(profile.age)],
    [
      "relationship_status",
      t("profile.relationship_status"),
      profile.relationship_status && t(`profile.relationship_statuses.${profile.relationship_status}`),
    ],
    ["body_type", t("profile.body_type"), profile.body_type && t(`profile.body_types.${profile.body_type}`)],
    ["hair_color", t("profile.hair_color"), profile.hair_color && t(`profile.hair_colors.${profile.hair_color}`)],
    ["eye_color", t("profile.eye_color"), profile.eye_color && t(`profile.eye_colors.${profile.eye_color}`)],
    ["tattoos", t("profile.tattoos"), profile.tattoos && t(`profile.tattoo_levels.${profile.tattoos}`)],
    ["region", t("profile.region"), profile.region],
    ["city", t("profile.city"), profile.city],
  ];

  return (
    <article className="member">
      <Title text={`${profile.name}, ${profile.age}`} />
      <div className="member__photos">
        <div className={profile.premium ? "member__main-photo is-premium" : "member__main-photo"}>
          {shown ? (
            <img
              src={shown.image}
              alt={profile.name}
              width={480}
              height={600}
              className={shown.locked ? "is-locked" : undefined}
            />
          ) : (
            <InitialsPortrait name={profile.name} className="initials-portrait--large" />
          )}
          {shown?.locked &&
            (user ? (
              <Link href="/premium" className="lock-overlay">
                <LockIcon size={28} /> {t("profile.locked_photo")}
              </Link>
            ) : (
              <button type="button" className="lock-overlay" onClick={() => openSignup(t("login_needed.photos"))}>
                <LockIcon size={28} /> {t("login_needed.photos")}
              </button>
            ))}
          {shown && !shown.locked && !data.viewer?.own && (
            <ReportButton profile={profile} photoId={shown.id} className="member__photo-report" />
          )}
          {/* The name on the photo, as a dating profile shows it: the first thing read, never scrolled to. */}
          <div className="member__nameplate">
            <h1>
              {profile.name}, {profile.age} {profile.fictional && <FictionalMark />}
              {profile.premium && <PremiumBadge />}
              {profile.verified && <VerifiedBadge />}
            </h1>
            <p className="member__place">
              {[profile.city, profile.region, t(`countries.${profile.country}`)].filter(Boolean).join(", ")}
            </p>
          </div>
        </div>
        {photos.length > 1 && (
          <ul className="member__thumbs" aria-label={t("profile.photos")}>
            {photos.map((photo) => (
              <li key={photo.id}>
                <button
                  type="button"
                  onClick={() => {
                    setSelected(photo.id);
                    if (photo.locked && !user) openSignup(t("login_needed.photos"));
                  }}
                  aria-pressed={photo.id === shown?.id}
                  className={photo.locked ? "thumb is-locked" : "thumb"}
                >
                  <img
                    src={photo.thumb}
                    alt={photo.locked ? t("profile.locked_photo") : profile.name}
                    width={80}
                    height={100}
                    loading="lazy"
                  />
                  {photo.locked && (
                    <span className="thumb__lock" title={t("profile.locked_photo")}>
                      <LockIcon />
                    </span>
                  )}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="member__info">
        {profile.fictional && <p className="notice notice--fictional">{warning}</p>}
        {(matched || (data.viewer?.liked && likedMe)) && (
          <MatchNotice name={profile.name} verified={profile.verified} />
        )}
        <div className="member__actions">
          {invisibleNote && (
            <p className="notice member__invisible" data-invisible-note>
              {invisibleNote}
            </p>
          )}
          {user ? (
            <>
              {canMessage && (
                <Link href={`/members/${profile.id}/chat`} className="button button--primary">
                  {t("profile.message")}
                </Link>
              )}
              {(data.viewer?.liked || matched) && (
                <span className={likedMe || matched ? "like-state like-state--matched" : "like-state"}>
                  {likedMe || matched ? t("likes.matched") : t("likes.liked")}
                </span>
              )}
              {data.viewer && !data.viewer.own && !data.viewer.blocked && canLike && (
                <>
                  <LikeButton
                    key={`${profile.id}-${data.viewer.liked ? 1 : 0}`}
                    profile={profile}
                    liked={data.viewer.liked ?? false}
                    likedMe={likedMe}
                    onDone={(result) => setMatched(result.matched && result.liked)}
                  />
                </>
              )}
            </>
          ) : data.invisible ? null : (
            <>
              <button
                type="button"
                className="button button--primary"
                onClick={() => openSignup(t("login_needed.chat"))}
              >
                {t("profile.message")}
              </button>
              <button type="button" className="button button--ghost" onClick={() => openSignup(t("login_needed.like"))}>
                {t("profile.like")}
              </button>
            </>
          )}
        </div>
        {!data.viewer?.own && (
          <div className="member__more">
            {!user && !data.invisible && (
              <button type="button" className="button button--ghost" onClick={() => openSignup(t("login_needed.gift"))}>
                {t("profile.gift")}
              </button>
            )}
            {user && data.viewer && !data.viewer.blocked && canMessage && (
              <GiftButton profileId={profile.id} name={profile.name} />
            )}
            {user && data.viewer && <BlockButton data={data} mutate={mutate} />}
            <ReportButton profile={profile} />
          </div>
        )}
        {visible.has("about_me") && profile.about_me && (
          <section>
            <h2>{t("profile.about_me")}</h2>
            <p className="member__about">{profile.about_me}</p>
          </section>
        )}
        <dl className="member__details">
          {details
            .filter(([field, , value]) => visible.has(field) && value)
            .map(([field, label, value]) => (
              <div key={field}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
        </dl>
        {visible.has("interests") && profile.interests.length > 0 && (
          <section>
            <h2>{t("profile.interests")}</h2>
            <ul className="chips">
              {profile.interests.map((i) => (
                <li key={i.slug}>{i.name}</li>
              ))}
            </ul>
          </section>
        )}
      </div>
      <CamPromotion name={profile.name} />
      {related.length > 0 && (
        <section className="member__related">
          <h2>{t("profile.related")}</h2>
          <ProfileGrid profiles={related} />
        </section>
      )}
    </article>
  );
}
