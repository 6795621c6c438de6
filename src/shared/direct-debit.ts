/** The direct-debit form (SPEC §3, §5): its fields checked alike on the client and the server. */
import { electronicFormatIBAN, isValidIBAN } from "ibantools";
import * as v from "valibot";

const Id = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_147_483_647));
const Text = (max: number) => v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(max));

/** An IBAN as the member may type it (spaces, lower case), in its electronic form when valid. */
export const Iban = v.pipe(
  v.string(),
  v.transform((input) => electronicFormatIBAN(input) ?? ""),
  v.check((iban) => isValidIBAN(iban), "iban"),
);

/** A mobile number in international or national form, spaces and dashes left out. */
export const Mobile = v.pipe(
  v.string(),
  v.transform((input) => input.replace(/[\s-]/g, "")),
  v.regex(/^\+?[0-9]{8,15}$/),
);

/** POST /api/directdebit.php: the account and the authorisation; an SMS code is sent to the mobile number. */
export const DirectDebitRequest = v.object({
  bundle_id: Id,
  account_holder: Text(70),
  iban: Iban,
  street: Text(100),
  house_number: Text(16),
  postal_code: Text(16),
  city: Text(64),
  mobile: Mobile,
  authorise: v.literal(true),
});

/** POST /api/directdebit-confirm.php: the 6-digit SMS code. */
export const DirectDebitConfirm = v.object({ bundle_id: Id, code: v.pipe(v.string(), v.regex(/^[0-9]{6}$/)) });

export const SMS_CODE_TTL_SECONDS = 10 * 60;
export const SMS_CODE_TRIES = 5;
/** Codes a member may ask for per hour. */
export const SMS_CODES_PER_HOUR = 5;
