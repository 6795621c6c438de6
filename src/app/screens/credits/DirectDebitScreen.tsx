import PlaceholderScreen from "../placeholder/PlaceholderScreen";
import type { ScreenProps } from "../../page-state";

/** /directdebit: the direct-debit form comes with its SMS confirmation; until then the page's title. */
export default function DirectDebitScreen(props: ScreenProps) {
  return <PlaceholderScreen {...props} />;
}
