import type { ReactNode } from "react";
import { ActivityCount } from "../components/ActivityCount";
import { Alerts } from "../components/Alerts";
import { EntryWarning } from "../components/EntryWarning";
import { Footer } from "../components/Footer";
import { LoadingBar } from "../components/LoadingBar";
import { SignupModalProvider } from "../components/SignupModal";
import { TimeBonusModal } from "../components/TimeBonus";
import { TopBar } from "../components/TopBar";
import { useRouter, useSettings } from "../page/page-context";
import { useChats } from "../hooks/useChats";
import { useNewLikes } from "../hooks/useLikes";
import { LikePopup } from "../components/LikePopup";
import type { LayoutName } from "../../shared/routes";

/** Chat, Lander and Empty show the entry warning only in these countries (SPEC §2). */
const ENTRY_WARNING_COUNTRIES_LIMITED = ["NL", "DE"] as const;
/** Routes on which no entry warning shows at all (SPEC §2 Alerts). */
const NO_ENTRY_WARNING = new Set(["complete-signup", "reset-password", "reset-password-do"]);

function Entry({ limited }: { limited?: boolean }) {
  const { match } = useRouter();
  if (match && NO_ENTRY_WARNING.has(match.route.name)) return null;
  return limited ? <EntryWarning onlyCountries={ENTRY_WARNING_COUNTRIES_LIMITED} /> : <EntryWarning />;
}

/**
 * Default: top navigation, alerts, content, footer with disclaimer (and the US statement in English),
 * entry warning, signup modal.
 */
function DefaultLayout({ children }: { children: ReactNode }) {
  const { totalUnread } = useChats();
  const newLikes = useNewLikes();
  const { match } = useRouter();
  // On phones an open conversation takes the whole screen, as it does from /members/{id}/chat.
  const conversation = match?.route.name === "chats-id";
  return (
    <SignupModalProvider>
      <ActivityCount newLikes={newLikes}>
        <div className={conversation ? "layout layout--default layout--conversation" : "layout layout--default"}>
          <LoadingBar />
          <TopBar unreadMessages={totalUnread} newLikes={newLikes} />
          <Alerts />
          <main className="content" id="content">
            {children}
          </main>
          <Footer />
          <Entry />
          <LikePopup />
          <TimeBonusModal />
        </div>
      </ActivityCount>
    </SignupModalProvider>
  );
}

/** The frame of the layouts without the top navigation: loading bar, content, entry warning limited to NL and DE. */
function BareFrame({
  name,
  header,
  footer,
  children,
}: {
  name: LayoutName;
  header?: ReactNode;
  footer?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className={`layout layout--${name}`}>
      <LoadingBar />
      {header}
      <main className={name === "chat" ? "content content--chat" : "content"}>{children}</main>
      {footer}
      <Entry limited />
    </div>
  );
}

/** Chat: the conversation fills the screen; entry warning limited to NL and DE. */
function ChatLayout({ children }: { children: ReactNode }) {
  const newLikes = useNewLikes();
  return (
    <ActivityCount newLikes={newLikes}>
      <BareFrame name="chat">{children}</BareFrame>
    </ActivityCount>
  );
}

/** Lander: a simple navbar with the logo, content, footer and disclaimer. */
function LanderLayout({ children }: { children: ReactNode }) {
  const settings = useSettings();
  const header = (
    <header className="lander-bar">
      <a href="/" className="top-bar__brand">
        <img src="/icons/icon.svg" alt="" width={28} height={28} />
        <span>{settings.name}</span>
      </a>
    </header>
  );
  return (
    <BareFrame name="lander" header={header} footer={<Footer />}>
      {children}
    </BareFrame>
  );
}

/** Empty: content only, entry warning limited to NL and DE, signup modal. */
function EmptyLayout({ children }: { children: ReactNode }) {
  return (
    <SignupModalProvider>
      <BareFrame name="empty">{children}</BareFrame>
    </SignupModalProvider>
  );
}

export const LAYOUTS: Record<LayoutName, (props: { children: ReactNode }) => ReactNode> = {
  default: DefaultLayout,
  chat: ChatLayout,
  lander: LanderLayout,
  empty: EmptyLayout,
};
