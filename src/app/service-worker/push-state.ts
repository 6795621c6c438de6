/**
 * Push on this browser (SPEC §3, §4): unknown until looked at, then capable, subscribed or denied
 * ("unsupported" when the browser cannot, or the site has no push key). One store for the whole
 * page, read by the push alert, the signup step and the refresh interval; the actions subscribe,
 * turn off, and move the subscription to whichever member is logged in (decision 0019).
 */
import { PUSH_MEMBER_KEY } from "../../shared/browser-storage";
import { apiSend } from "../page/api";
import { SERVICE_WORKER_ENABLED } from "./app-update";

export type PushState = "unknown" | "unsupported" | "capable" | "subscribed" | "denied";

/** What the browser says, gathered by `lookAtPush`; `subscribed` is null until the registration was asked. */
export type PushFacts = {
  capable: boolean;
  publicKey: string;
  permission: NotificationPermission | null;
  subscribed: boolean | null;
};

/** SPEC §4: the push state from what the browser says. An empty public key means push is not offered. */
export function pushStateOf(facts: PushFacts): PushState {
  if (!facts.capable || facts.publicKey === "") return "unsupported";
  if (facts.permission === "denied") return "denied";
  if (facts.subscribed === null) return "unknown";
  return facts.subscribed && facts.permission === "granted" ? "subscribed" : "capable";
}

const SUBSCRIPTION_URL = "/api/user.php?push=1";

let state: PushState = "unknown";
const listeners = new Set<() => void>();

export const currentPushState = (): PushState => state;
export function subscribeToPushState(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
function setState(next: PushState) {
  if (next === state) return;
  state = next;
  listeners.forEach((l) => l());
}

function storedMember(): string | null {
  try {
    return localStorage.getItem(PUSH_MEMBER_KEY);
  } catch {
    return null;
  }
}
function storeMember(memberId: number | null) {
  try {
    if (memberId === null) localStorage.removeItem(PUSH_MEMBER_KEY);
    else localStorage.setItem(PUSH_MEMBER_KEY, String(memberId));
  } catch {
    // Without storage the subscription is simply sent again on the next page.
  }
}

const browserCapable = () =>
  SERVICE_WORKER_ENABLED && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration("/");
  return registration ? registration.pushManager.getSubscription() : null;
}

/** Ask the browser where push stands and update the store; returns the subscription if there is one. */
export async function lookAtPush(publicKey: string): Promise<PushSubscription | null> {
  const capable = browserCapable();
  const permission = capable ? Notification.permission : null;
  if (!capable || publicKey === "" || permission === "denied") {
    setState(pushStateOf({ capable, publicKey, permission, subscribed: null }));
    return null;
  }
  const subscription = await currentSubscription().catch(() => null);
  setState(pushStateOf({ capable, publicKey, permission, subscribed: subscription !== null }));
  return subscription;
}

/** The server forgets this browser's subscription (it names the endpoint, so only this browser's goes). */
function takeFromServer(subscription: PushSubscription): Promise<unknown> {
  return apiSend("POST", SUBSCRIPTION_URL, { subscription: null, endpoint: subscription.endpoint }).catch(
    () => undefined,
  );
}

/** The server keeps this browser's subscription for the member logged in now (and this login). */
async function giveToServer(subscription: PushSubscription, memberId: number): Promise<void> {
  await apiSend("POST", SUBSCRIPTION_URL, { subscription: subscription.toJSON() });
  storeMember(memberId);
}

/**
 * Turn push on for the member (the signup step, the push alert): ask permission if not asked yet,
 * subscribe with the site's key, give the subscription to the server. Returns the state after it.
 */
export async function turnOnPush(publicKey: string, memberId: number): Promise<PushState> {
  if (!browserCapable() || publicKey === "") return lookAtPush(publicKey).then(currentPushState);
  const permission =
    Notification.permission === "default" ? await Notification.requestPermission() : Notification.permission;
  if (permission !== "granted") {
    await lookAtPush(publicKey);
    return state;
  }
  const registration = await navigator.serviceWorker.ready;
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey }));
  await giveToServer(subscription, memberId);
  setState("subscribed");
  return state;
}

/** Turn push off on this browser: the server forgets the subscription, then the browser drops it. */
export async function turnOffPush(publicKey: string): Promise<void> {
  const subscription = await currentSubscription().catch(() => null);
  if (subscription) {
    await takeFromServer(subscription);
    await subscription.unsubscribe().catch(() => false);
  }
  storeMember(null);
  await lookAtPush(publicKey);
}

/**
 * A member is logged in on a subscribed browser: if the server has the subscription for someone
 * else (or not at all), it now belongs to this member.
 */
export async function givePushToMember(publicKey: string, memberId: number): Promise<void> {
  const subscription = await lookAtPush(publicKey);
  if (!subscription || state !== "subscribed" || storedMember() === String(memberId)) return;
  await giveToServer(subscription, memberId).catch(() => undefined);
}

/** Before logging out: the server forgets this browser's subscription; the browser keeps it for the next member who logs in. */
export async function leavePush(): Promise<void> {
  if (storedMember() === null || !browserCapable()) return;
  const subscription = await currentSubscription().catch(() => null);
  if (subscription) await takeFromServer(subscription);
  storeMember(null);
}

/**
 * The member is gone (logout, deletion, a session that ended, a page that loads as a visitor's). If
 * the server could not be told first (leavePush), the browser drops the subscription, so a shared
 * phone shows no more notifications of the member who left; the server deletes it when the push
 * service answers 410.
 */
export async function forgetPush(): Promise<void> {
  if (storedMember() === null || !browserCapable()) return;
  storeMember(null);
  const subscription = await currentSubscription().catch(() => null);
  await subscription?.unsubscribe().catch(() => false);
  if (subscription) setState("capable");
}
