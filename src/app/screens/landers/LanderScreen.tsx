import type { ComponentType } from "react";
import useSWR from "swr";
import type { ShowcaseResponse } from "../../../shared/api";
import type { ApiRequestError } from "../../page/api";
import { ErrorPage } from "../../components/ErrorPage";
import { Title } from "../../components/Title";
import { useT } from "../../page/page-context";
import { withTracking, type LanderVariant } from "../../../shared/landers";
import { showcaseKey } from "../../page/page-data";
import type { ScreenProps } from "../../page/page-state";
import type { LANDERS } from "../../../shared/routes";
import { AloneTonight } from "./AloneTonight";
import { Collage } from "./Collage";
import { Feed } from "./Feed";
import { Gallery } from "./Gallery";
import { Icons } from "./Icons";
import { Reel } from "./Reel";
import { SwipeDeck } from "./SwipeDeck";
import { TownMap } from "./TownMap";
import { Transitions } from "./Transitions";
import { SignupCta, type ConceptProps } from "./parts";
import "./landers.css";

type Concept = (typeof LANDERS)[number] | "tinderswipe";

const CONCEPTS: Record<Concept, ComponentType<ConceptProps>> = {
  tinderswipe: SwipeDeck,
  alonetonight: AloneTonight,
  collagelanding: Collage,
  gallery: Gallery,
  iconslanding: Icons,
  maplanding: TownMap,
  socialnetwork: Feed,
  transitionsvideolanding: Transitions,
  video: Reel,
};

/**
 * The nine landers (SPEC §2): each its own way of showing real members of the site's country, all
 * ending in the signup with the visitor's traffic source kept. The slug picks a variant's headline
 * and colour theme.
 */
export default function LanderScreen({ params, query, routeName }: ScreenProps) {
  const t = useT();
  const concept: Concept = routeName === "landers-tinderswipe" ? "tinderswipe" : (params.lander as Concept);
  const variant = params.slug as LanderVariant | undefined;
  const { data, error } = useSWR<ShowcaseResponse, ApiRequestError>(showcaseKey(concept === "maplanding"));
  if (error) return <ErrorPage error={{ status: error.status, message: error.message }} />;
  const headline = variant ? t(`landers.variants.${variant}`) : t(`landers.${concept}.headline`);
  const signup = withTracking("/signup", query);
  const Shown = CONCEPTS[concept];
  return (
    <section className={`lander lander--${concept} lander-theme--${variant ?? "default"}`}>
      <Title text={headline} />
      <header className="lander__head">
        <h1>{headline}</h1>
        <p>{t(`landers.${concept}.intro`)}</p>
      </header>
      {data ? (
        <Shown profiles={data.profiles} towns={data.towns} signup={signup} />
      ) : (
        <p aria-busy="true">{t("search.loading")}</p>
      )}
      <div className="lander__end">
        <p>{t("landers.free")}</p>
        <SignupCta href={signup} />
      </div>
    </section>
  );
}
