import { useState } from "react";
import { useT } from "../../page/page-context";
import { MemberName, MemberPhoto, MemberTown, SignupCta, type ConceptProps } from "./parts";

/** How many cards a visitor swipes before the deck asks them to sign up. */
const FREE_SWIPES = 3;

/** /landers/tinderswipe: a deck of members to like or skip; after a few swipes, the way to signup. */
export function SwipeDeck({ profiles, signup }: ConceptProps) {
  const t = useT();
  const [index, setIndex] = useState(0);
  const [leaving, setLeaving] = useState<"like" | "skip" | null>(null);
  const done = index >= Math.min(FREE_SWIPES, profiles.length);

  const swipe = (direction: "like" | "skip") => {
    if (leaving) return;
    setLeaving(direction);
    window.setTimeout(() => {
      setLeaving(null);
      setIndex((i) => i + 1);
    }, 300);
  };

  if (done)
    return (
      <div className="swipe-deck__done">
        <p>{t("landers.tinderswipe.done")}</p>
        <SignupCta href={signup} />
      </div>
    );
  const visible = profiles.slice(index, index + 3);
  return (
    <div className="swipe-deck">
      <div className="swipe-deck__stack">
        {visible
          .map((profile, i) => (
            <article
              key={profile.id}
              className={`swipe-card${i === 0 && leaving ? ` swipe-card--${leaving}` : ""}`}
              style={{ zIndex: 3 - i }}
              aria-hidden={i > 0}
            >
              <MemberPhoto profile={profile} large eager={index === 0 && i === 0} />
              <div className="swipe-card__text">
                <MemberName profile={profile} />
                <MemberTown profile={profile} />
              </div>
            </article>
          ))
          .toReversed()}
      </div>
      <div className="swipe-deck__buttons">
        <button type="button" className="swipe-button swipe-button--skip" onClick={() => swipe("skip")}>
          <span aria-hidden="true">✕</span> {t("landers.tinderswipe.skip")}
        </button>
        <button type="button" className="swipe-button swipe-button--like" onClick={() => swipe("like")}>
          <span aria-hidden="true">♥</span> {t("landers.tinderswipe.like")}
        </button>
      </div>
    </div>
  );
}
