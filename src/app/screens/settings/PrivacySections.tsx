import type { User } from "../../../shared/api";
import { apiSend } from "../../page/api";
import { useT } from "../../page/page-context";
import { USER_KEY, useUser } from "../../hooks/useUser";
import { SwitchSection } from "./SettingSwitch";

/** Invisible mode (SPEC §4): hidden from search, and others cannot message or like the member. */
export function InvisibleSection({ invisible }: { invisible: boolean }) {
  const t = useT();
  const { setUser } = useUser();
  return (
    <SwitchSection
      id="settings-invisible"
      title={t("settings.invisible.title")}
      label={t("settings.invisible.label")}
      hint={t("settings.invisible.text")}
      value={invisible}
      save={async (on) => {
        const { user } = await apiSend<{ user: User }>("PUT", USER_KEY, { invisible: on });
        await setUser(user);
      }}
    />
  );
}

/** The site's promotion pages (issue 37): the member's profile on them only when they choose it. */
export function PromotionSection({ on }: { on: boolean }) {
  const t = useT();
  const { setUser } = useUser();
  return (
    <SwitchSection
      id="settings-promotion"
      title={t("settings.promotion.title")}
      label={t("settings.promotion.label")}
      hint={t("settings.promotion.text")}
      value={on}
      save={async (value) => {
        const { user } = await apiSend<{ user: User }>("PUT", USER_KEY, { promotion_pages: value });
        await setUser(user);
      }}
    />
  );
}

/** Everything held about the member, as a JSON file. */
export function MyDataSection() {
  const t = useT();
  return (
    <section className="settings__section" aria-labelledby="settings-data">
      <h2 id="settings-data">{t("settings.data.title")}</h2>
      <p className="settings__hint">{t("settings.data.text")}</p>
      <a className="button button--ghost" href="/api/my-data.php" download>
        {t("settings.data.download")}
      </a>
    </section>
  );
}
