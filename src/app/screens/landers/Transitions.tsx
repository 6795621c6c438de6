import { MemberCaption, MemberPhoto, PausableShow, type ConceptProps } from "./parts";

const SLIDES = 6;
/** Seconds each member stays on screen; the CSS animation of a slide runs SLIDES times this. */
const SLIDE_SECONDS = 3;

/**
 * /landers/transitionsvideolanding: members' photos following each other with changing transitions
 * (fade, zoom, slide), all CSS keyframes: no video is downloaded and no script runs the show. Like
 * anything that moves on its own for more than five seconds, it can be paused (WCAG 2.2.2).
 */
export function Transitions({ profiles }: ConceptProps) {
  const shown = profiles.slice(0, SLIDES);
  return (
    <PausableShow block="transitions" shots={shown.length} seconds={SLIDE_SECONDS}>
      {shown.map((profile, i) => (
        <figure
          key={profile.id}
          className={`transitions__slide transitions__slide--${i % 3}`}
          style={{ animationDelay: `${i * SLIDE_SECONDS}s` }}
        >
          <MemberPhoto profile={profile} large eager={i === 0} />
          <MemberCaption profile={profile} />
        </figure>
      ))}
    </PausableShow>
  );
}
