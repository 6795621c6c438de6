/**
 * The names under which the pages keep things in the browser's storage (SPEC §3: the dismissal
 * timestamps, the site-entry skip, the last-opened chat). The pages use them, and the cookies page
 * lists them by the same names.
 */

/** localStorage: when the site-entry warning was skipped. */
export const ENTRY_SKIP_KEY = "site-entry-skip";
/** localStorage: when the profile-photo alert was dismissed. */
export const PHOTO_ALERT_KEY = "hide-enrich-alert";
/** localStorage: when the push alert was dismissed. */
export const PUSH_ALERT_KEY = "hide-push-notification-alert";
/** localStorage: when the disabled-notifications alert was dismissed. */
export const DISABLED_NOTIFICATIONS_ALERT_KEY = "hide-disabled-notifications-alert";
/** localStorage: the member (profile id) this browser's push subscription was last given to the server for. */
export const PUSH_MEMBER_KEY = "push-subscription-member";
/** localStorage: the last-opened chat profile and when. */
export const LAST_CHAT_KEY = "last-chat";
/** localStorage: when the premium alert above the chat composer was put away. */
export const CHAT_PREMIUM_ALERT_KEY = "hide-chat-premium-alert";
/** localStorage: the member asked not to confirm paid chat sends (docs/decisions/0064). */
export const SEND_CONFIRM_OFF_KEY = "chat-send-confirm-off";
/** sessionStorage: the last geocoded position of the location button. */
export const GEOCODE_STORAGE_KEY = "geocode";
/** sessionStorage: when a failed chunk load last reloaded the page. */
export const CHUNK_RELOAD_KEY = "chunk-reload-at";
