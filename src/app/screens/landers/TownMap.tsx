import { useState } from "react";
import { useT } from "../../page/page-context";
import { MemberGallery, type ConceptProps } from "./parts";

/**
 * /landers/maplanding: the towns the members live in, drawn on a map by their relative places
 * (the server sends a position on a 100 x 100 drawing, never coordinates), and who lives there.
 */
export function TownMap({ profiles, towns, signup }: ConceptProps) {
  const t = useT();
  const [chosen, setChosen] = useState(towns[0]?.name ?? null);
  const town = towns.find((tw) => tw.name === chosen);
  const members = town ? profiles.filter((p) => town.profile_ids.includes(p.id)) : profiles.slice(0, 4);
  return (
    <div className="town-map">
      <svg
        className="town-map__drawing"
        viewBox="0 0 100 100"
        role="img"
        aria-label={t("landers.maplanding.map_label")}
      >
        <rect x="2" y="2" width="96" height="96" rx="10" className="town-map__land" />
        {towns.map((tw) => (
          <g
            key={tw.name}
            className={`town-map__town${tw.name === chosen ? " town-map__town--chosen" : ""}`}
            transform={`translate(${tw.x} ${tw.y})`}
          >
            <circle r={2 + Math.min(tw.profile_ids.length, 4)} className="town-map__pulse" />
            <circle r="2" className="town-map__dot" />
            <text y="-5" textAnchor="middle" className="town-map__label">
              {tw.name}
            </text>
          </g>
        ))}
      </svg>
      <ul className="town-map__towns" aria-label={t("landers.maplanding.towns")}>
        {towns.map((tw) => (
          <li key={tw.name}>
            <button type="button" className="chip" aria-pressed={tw.name === chosen} onClick={() => setChosen(tw.name)}>
              {tw.name} <span className="badge">{tw.profile_ids.length}</span>
            </button>
          </li>
        ))}
      </ul>
      <MemberGallery profiles={members} signup={signup} eager={2} />
    </div>
  );
}
