import useSWR from "swr";
import type { ApiRequestError } from "../../page/api";
import { apiSend } from "../../page/api";
import { useT } from "../../page/page-context";
import type { VerificationState } from "../../../shared/verification";
import { SwitchSection } from "./SettingSwitch";

export const VERIFICATION_KEY = "/api/verification.php";

/** "Only verified members may write to me" (docs/decisions/0040): first messages from verified members only. */
export function VerifiedOnlySection() {
  const t = useT();
  const { data, mutate } = useSWR<{ verification: VerificationState }, ApiRequestError>(VERIFICATION_KEY);
  return (
    <SwitchSection
      id="settings-verified-only"
      title={t("verification.verified_only_title")}
      label={t("verification.verified_only")}
      hint={t("verification.verified_only_hint")}
      value={data?.verification.verified_only ?? false}
      ready={data !== undefined}
      save={async (on) => {
        await mutate(
          await apiSend<{ verification: VerificationState }>("PUT", VERIFICATION_KEY, { verified_only: on }),
          { revalidate: false },
        );
      }}
    />
  );
}
