import { useLayoutEffect, useRef, type ChangeEvent, type KeyboardEvent } from "react";
import { useT } from "../../page/page-context";

/** What the attachment button offers (the server checks the content, not the type). */
const PHOTO_ACCEPT = "image/jpeg,image/png,image/webp";
/** The counter shows once this much of message_length is used. */
const COUNTER_FROM = 0.8;

type Props = {
  name: string;
  draft: string;
  onDraft: (text: string) => void;
  onSend: () => void;
  onPhoto: (file: File) => void;
  onGifts: () => void;
  maxLength: number;
  uploading: boolean;
  /** What the next message costs, as the footer says it (empty when nothing to say). */
  costText: string;
  notice: string | null;
};

/**
 * The send footer: attachment and gift buttons, the text area (Enter sends, Shift+Enter starts a new
 * line, at most message_length characters with a counter near the limit) and the send button.
 */
export function SendFooter({
  name,
  draft,
  onDraft,
  onSend,
  onPhoto,
  onGifts,
  maxLength,
  uploading,
  costText,
  notice,
}: Props) {
  const t = useT();
  const fileInput = useRef<HTMLInputElement>(null);
  const input = useGrowingTextArea();

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    onSend();
  };

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (file) onPhoto(file);
  };

  const showCounter = draft.length >= maxLength * COUNTER_FROM;

  return (
    <form
      className="chat-footer"
      onSubmit={(event) => {
        event.preventDefault();
        onSend();
      }}
    >
      {notice && (
        <p className="chat-footer__notice" role="alert">
          {notice}
        </p>
      )}
      <div className="chat-footer__row">
        <input
          ref={fileInput}
          type="file"
          accept={PHOTO_ACCEPT}
          className="visually-hidden"
          tabIndex={-1}
          aria-hidden="true"
          onChange={onFile}
        />
        <button
          type="button"
          className="icon-button"
          onClick={() => fileInput.current?.click()}
          disabled={uploading}
          aria-label={t("chat.attach")}
          title={t("chat.attach")}
        >
          <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
            <path
              fill="currentColor"
              d="M16.5 6.5v10a4.5 4.5 0 0 1-9 0V5a3 3 0 0 1 6 0v10.5a1.5 1.5 0 0 1-3 0V6.5H9v9a3 3 0 0 0 6 0V5a4.5 4.5 0 0 0-9 0v11.5a6 6 0 0 0 12 0v-10h-1.5z"
            />
          </svg>
        </button>
        <button
          type="button"
          className="icon-button"
          onClick={onGifts}
          aria-label={t("chat.send_gift")}
          title={t("chat.send_gift")}
        >
          <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
            <path
              fill="currentColor"
              d="M20 7h-2.2A3 3 0 0 0 12 3.8 3 3 0 0 0 6.2 7H4a1 1 0 0 0-1 1v3a1 1 0 0 0 1 1v8a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-8a1 1 0 0 0 1-1V8a1 1 0 0 0-1-1zm-5-2a1 1 0 1 1 0 2h-2a2 2 0 0 1 2-2zM9 5a2 2 0 0 1 2 2H9a1 1 0 0 1 0-2zM5 9h6v2H5V9zm1 4h5v6H6v-6zm7 6v-6h5v6h-5zm6-8h-6V9h6v2z"
            />
          </svg>
        </button>
        <textarea
          ref={input}
          className="chat-footer__input"
          rows={1}
          value={draft}
          maxLength={maxLength}
          placeholder={t("chat.placeholder")}
          aria-label={t("chat.message_to", { name })}
          onChange={(event) => onDraft(event.target.value)}
          onKeyDown={onKeyDown}
          enterKeyHint="send"
        />
        <button
          type="submit"
          className="icon-button chat-footer__send"
          disabled={draft.trim() === ""}
          aria-label={t("chat.send")}
          title={t("chat.send")}
        >
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
            <path fill="currentColor" d="M3.4 20.4 21 12 3.4 3.6 3.4 10l12.6 2-12.6 2z" />
          </svg>
        </button>
      </div>
      {(costText || showCounter || uploading) && (
        <p className="chat-footer__meta">
          <span>{uploading ? t("chat.uploading") : costText}</span>
          {showCounter && (
            <span className={draft.length >= maxLength ? "chat-footer__count is-full" : "chat-footer__count"}>
              {draft.length}/{maxLength}
            </span>
          )}
        </p>
      )}
    </form>
  );
}

/**
 * The text area grows with its text up to five lines (the stylesheet's max-height), then scrolls.
 * Browsers with `field-sizing: content` do it in CSS; the others are measured after each render.
 */
function useGrowingTextArea() {
  const input = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    const element = input.current;
    if (!element || CSS.supports("field-sizing", "content")) return;
    element.style.height = "auto";
    element.style.height = `${element.scrollHeight + element.offsetHeight - element.clientHeight}px`;
  });
  return input;
}
