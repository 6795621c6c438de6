import { dayKey } from "../../chat/chat-view-rules";
import { type Translate } from "../../../shared/translator";

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per locale and style, made once: building them is slow on a cheap phone. */
function formatter(locale: string, style: "time" | "weekday" | "date" | "day" | "dayYear"): Intl.DateTimeFormat {
  const key = `${locale}|${style}`;
  let format = formatters.get(key);
  if (!format) {
    const options: Record<typeof style, Intl.DateTimeFormatOptions> = {
      time: { hour: "2-digit", minute: "2-digit" },
      weekday: { weekday: "short" },
      date: { day: "numeric", month: "numeric", year: "2-digit" },
      day: { weekday: "long", day: "numeric", month: "long" },
      dayYear: { weekday: "long", day: "numeric", month: "long", year: "numeric" },
    };
    format = new Intl.DateTimeFormat(locale, options[style]);
    formatters.set(key, format);
  }
  return format;
}

/** A message's time of day in the page's language. */
export const messageTime = (seconds: number, locale: string) => formatter(locale, "time").format(seconds * 1000);

const yesterdayOf = (now: Date) =>
  dayKey(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1).getTime() / 1000);

/** The day separator of the message list (`nowMs` is now): Today, Yesterday or the date. */
export function dayLabel(day: string, nowMs: number, locale: string, t: Translate): string {
  const now = new Date(nowMs);
  if (day === dayKey(nowMs / 1000)) return t("chat.today");
  if (day === yesterdayOf(now)) return t("chat.yesterday");
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return formatter(locale, year === now.getFullYear() ? "day" : "dayYear").format(new Date(year, month - 1, date));
}

/** The time of a conversation's last message in the overview: the time today, the weekday this week, else the date. */
export function listTime(seconds: number, nowMs: number, locale: string): string {
  if (dayKey(seconds) === dayKey(nowMs / 1000)) return messageTime(seconds, locale);
  if (nowMs / 1000 - seconds < 6 * 86_400) return formatter(locale, "weekday").format(seconds * 1000);
  return formatter(locale, "date").format(seconds * 1000);
}
