import { useT } from "../../page/page-context";
import { MemberPhoto, type ConceptProps } from "./parts";

/** Line icons drawn inline, so the page needs no icon font or extra request. */
const STEP_ICONS = {
  profile: "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm-7 8a7 7 0 0 1 14 0",
  search: "M10.5 17a6.5 6.5 0 1 0 0-13 6.5 6.5 0 0 0 0 13Zm4.6-1.9L20 20",
  chat: "M4 5h16v11H9l-5 4V5Z",
} as const;
const STEPS = ["profile", "search", "chat"] as const;

function StepIcon({ step }: { step: (typeof STEPS)[number] }) {
  return (
    <svg className="step-icon" viewBox="0 0 24 24" width="40" height="40" aria-hidden="true">
      <path
        d={STEP_ICONS[step]}
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** How it works in three steps, each an icon with a title and a line (the home page and this lander). */
export function IconSteps() {
  const t = useT();
  return (
    <ol className="icon-steps">
      {STEPS.map((step) => (
        <li key={step} className="icon-steps__step">
          <StepIcon step={step} />
          <strong>{t(`home.steps.${step}.title`)}</strong>
          <span>{t(`home.steps.${step}.text`)}</span>
        </li>
      ))}
    </ol>
  );
}

/** /landers/iconslanding: three icons say how it works, a row of faces says who is here. */
export function Icons({ profiles }: ConceptProps) {
  return (
    <div className="icons-lander">
      <IconSteps />
      <ul className="face-row">
        {profiles.slice(0, 6).map((profile, i) => (
          <li key={profile.id}>
            <MemberPhoto profile={profile} className="face-row__face" eager={i < 3} />
          </li>
        ))}
      </ul>
    </div>
  );
}
