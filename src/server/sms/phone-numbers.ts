/**
 * Mobile numbers as the SMS provider takes them: E.164 (+<country code><number>), read from what the
 * member typed in the way their country writes it (libphonenumber-js, Google's libphonenumber
 * metadata). Only the product's countries are texted: a number elsewhere is refused, which is also
 * the first guard against SMS pumping (premium-rate destinations the product never serves).
 */
// The "mobile" metadata: a number is valid only when it is a mobile number of its country.
import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js/mobile";
import { AppError } from "../errors";

/** The countries the product is sold in and texts (the UK is GB). */
export const SMS_COUNTRIES: readonly CountryCode[] = [
  "DK",
  "NO",
  "SE",
  "FI",
  "PL",
  "NL",
  "BE",
  "DE",
  "AT",
  "CH",
  "FR",
  "IT",
  "ES",
  "GB",
  "IE",
];

export type MobileNumber = { e164: string; country: CountryCode };

const isSmsCountry = (country: string | undefined): country is CountryCode =>
  !!country && (SMS_COUNTRIES as readonly string[]).includes(country);

/**
 * The member's number in E.164 with its country, read with the member's country as the default (a
 * national "06 12345678" in the Netherlands is +31612345678). Refused with the member's text when it
 * cannot be a mobile number (too short, a fixed line, an unused range), or is not in one of the
 * product's countries.
 */
export function mobileNumberOf(typed: string, memberCountry: string): MobileNumber {
  const country = memberCountry === "UK" ? "GB" : memberCountry;
  const parsed = parsePhoneNumberFromString(typed, isSmsCountry(country) ? country : undefined);
  if (!parsed || !parsed.isValid())
    throw new AppError({ status: 400, code: "invalid_mobile", key: "sms.number_impossible", field: "mobile" });
  if (!isSmsCountry(parsed.country))
    throw new AppError({
      status: 400,
      code: "mobile_country_not_served",
      key: "sms.country_not_served",
      field: "mobile",
    });
  return { e164: parsed.number, country: parsed.country };
}
