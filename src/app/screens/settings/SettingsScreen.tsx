import { SessionsSection } from "./SessionsSection";
import { LoginPrompt } from "../../components/LoginPrompt";
import { Title } from "../../components/Title";
import { useT } from "../../page/page-context";
import { useUser } from "../../hooks/useUser";
import { DeleteAccountSection } from "./DeleteAccountSection";
import { InvisibleSection, MyDataSection, PromotionSection } from "./PrivacySections";
import { MailChangeSection, PasswordSection } from "./CredentialSections";
import { NotificationSections } from "./NotificationSections";
import { VerifiedOnlySection } from "./VerifiedOnlySection";

/** Settings (route notifications, SPEC §2): notifications, e-mail, password, invisible mode, my data, delete account. */
export default function SettingsScreen() {
  const t = useT();
  const { user } = useUser();
  const title = t("settings.title");
  if (!user) return <LoginPrompt title={title} text={t("settings.login_prompt")} />;
  return (
    <section className="settings">
      <Title text={title} />
      <h1>{title}</h1>
      <NotificationSections email={user.email} />
      <MailChangeSection email={user.email} />
      <PasswordSection />
      <SessionsSection />
      <InvisibleSection invisible={user.invisible} />
      <PromotionSection on={user.promotion_pages} />
      <VerifiedOnlySection />
      <MyDataSection />
      <DeleteAccountSection />
    </section>
  );
}
