import { Title } from "../../components/Title";
import { useT } from "../../page/page-context";
import type { ScreenProps } from "../../page/page-state";

/** A route whose screen comes with a later part of the product: its translated title only. */
export default function PlaceholderScreen({ routeName }: ScreenProps) {
  const t = useT();
  const title = t(`routes.${routeName}`);
  return (
    <section className="placeholder">
      <Title text={title} />
      <h1>{title}</h1>
    </section>
  );
}
