/**
 * Every date a member reads on a page about their account (a decision, a receipt, an appeal, a
 * refund's deadline) is formatted here, in the time zone of the member's site (its `time_zone`), so
 * a receipt and a decision taken five minutes later never fall on different days, and the server's
 * page and the browser's agree.
 */
export type DateStyle = "date" | "dateTime";

const OPTIONS: Record<DateStyle, Intl.DateTimeFormatOptions> = {
  date: { dateStyle: "long" },
  dateTime: { dateStyle: "medium", timeStyle: "short" },
};

/** `seconds` (a Unix time) as a date, or a date and time, in the page's language and the site's time zone. */
export function memberDate(seconds: number, locale: string, timeZone: string, style: DateStyle = "date"): string {
  return new Intl.DateTimeFormat(locale, { ...OPTIONS[style], timeZone }).format(new Date(seconds * 1000));
}
