import { MemberGallery, type ConceptProps } from "./parts";

/** /landers/gallery: a tidy grid of the newest members, each leading to signup. */
export function Gallery({ profiles, signup }: ConceptProps) {
  return <MemberGallery profiles={profiles} signup={signup} eager={4} withTown />;
}
