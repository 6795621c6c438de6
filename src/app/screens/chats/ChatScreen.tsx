import { LoginPrompt } from "../../components/LoginPrompt";
import { useT } from "../../page/page-context";
import { useUser } from "../../hooks/useUser";
import type { ScreenProps } from "../../page/page-state";
import { Conversation } from "./Conversation";

/** The conversation with one member (/members/{id}/chat) in the Chat layout: the whole screen, a compact header. */
export default function ChatScreen({ params }: ScreenProps) {
  const t = useT();
  const { user } = useUser();
  if (!user) return <LoginPrompt title={t("chat.title")} text={t("login_needed.chat")} />;
  return (
    <div className="chat-screen">
      <Conversation key={params.id} source={{ profile: params.id! }} backHref="/chats" />
    </div>
  );
}
