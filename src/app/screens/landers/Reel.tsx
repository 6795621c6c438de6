import { MemberCaption, MemberPhoto, PausableShow, type ConceptProps } from "./parts";

const CLIPS = 5;
const CLIP_SECONDS = 4;

/**
 * /landers/video: a story-style reel the app makes from members' photos (slow zoom and pan, a
 * progress bar per member), played by CSS; the visitor can pause it.
 */
export function Reel({ profiles }: ConceptProps) {
  const clips = profiles.slice(0, CLIPS);
  return (
    <PausableShow block="reel" shots={clips.length} seconds={CLIP_SECONDS}>
      <div className="reel__bars" aria-hidden="true">
        {clips.map((profile, i) => (
          <span key={profile.id} className="reel__bar">
            <span style={{ animationDelay: `${i * CLIP_SECONDS}s` }} />
          </span>
        ))}
      </div>
      {clips.map((profile, i) => (
        <figure key={profile.id} className="reel__clip" style={{ animationDelay: `${i * CLIP_SECONDS}s` }}>
          <MemberPhoto profile={profile} large eager={i === 0} />
          <MemberCaption profile={profile} />
        </figure>
      ))}
    </PausableShow>
  );
}
