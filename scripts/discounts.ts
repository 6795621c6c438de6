/**
 * Operators add, end and list discount codes (SPEC §3) with this script, through wrangler on the
 * chosen database; the console's Discounts screen does the same. A new code is checked by the rules
 * the console uses (services/discounts.ts checkNewDiscountCode), and the queries are the data
 * layer's own (src/server/db/discounts.ts), run through drizzle's proxy driver, inlined for
 * `wrangler d1 execute` (inlineSql).
 *
 *   npm run discounts -- add SPRING20 --percentage 20 [--minimum 1500] [--country NL --currency EUR]
 *        [--expires 2026-12-31] [--validity unlimited] [--methods ideal,creditcard] --local|--remote [--env NAME]
 *   npm run discounts -- end SPRING20 --local
 *
 * Adding and ending write the audit row the console writes, naming the command and who ran it.
 *   npm run discounts -- list --local
 */
import { drizzle } from "drizzle-orm/sqlite-proxy";
import * as v from "valibot";
import * as schema from "../src/server/db/schema";
import type { Database } from "../src/server/db/database";
import { endDiscountCode, listDiscountCodes } from "../src/server/db/discounts";
import { addDiscountCodeStatement, checkNewDiscountCode } from "../src/server/services/discounts";
import { DiscountCodeText } from "../src/shared/discounts";
import { withAudit } from "../src/server/db/audit-log";
import { commandActor, fail, inlineSql, operatorArgs, runStatements, wrangler } from "./operator";

const { positionals, target, option } = operatorArgs([
  "percentage",
  "minimum",
  "country",
  "currency",
  "expires",
  "validity",
  "methods",
  "reason",
]);
const now = () => Math.floor(Date.now() / 1000);
const [command, code] = positionals;
const usage =
  "usage: discounts add <CODE> --percentage N [--minimum CENTS] [--country CC] [--currency EUR] [--expires YYYY-MM-DD] [--validity once_per_user|unlimited] [--methods a,b] | end <CODE> | list; [--reason TEXT]; with --local or --remote";
if (command !== "add" && command !== "end" && command !== "list") fail(usage);

const where = target();
const db = drizzle(
  async (query, params, method) => {
    const text = inlineSql({ sql: query, params });
    const [result] = JSON.parse(wrangler(["d1", "execute", "DB", ...where, "--json", "--command", text])) as {
      results: Record<string, unknown>[];
    }[];
    const rows = (result?.results ?? []).map((row) => Object.values(row));
    return { rows: method === "get" ? (rows[0] as unknown as unknown[][]) : rows };
  },
  { schema },
) as unknown as Database;

if (command === "list") {
  for (const row of await listDiscountCodes(db)) console.info(JSON.stringify(row));
} else if (command === "end") {
  const parsed = v.safeParse(DiscountCodeText, code ?? "");
  if (!parsed.success) fail(usage);
  const entry = {
    action: "discount.end",
    target: { kind: "discount", id: parsed.output },
    before: { status: "active" },
    after: { status: "inactive" },
    reason: option("reason") ?? "ended from the command line",
  };
  // The audit row follows the end and is written only when a code ended (withAudit's guard), in one batch.
  const ended = runStatements(
    where,
    withAudit(db, commandActor(), entry, [endDiscountCode(db, parsed.output)], now(), true),
  );
  console.info(`${parsed.output}: ${ended.filter((row) => "id" in row).length} code(s) ended`);
} else {
  const checked = checkNewDiscountCode({
    code: code ?? "",
    percentage: option("percentage") ?? "",
    minimumCents: option("minimum"),
    country: option("country"),
    currency: option("currency"),
    expiresAt: option("expires"),
    validity: option("validity"),
    paymentMethods: option("methods"),
  });
  if ("problems" in checked) {
    for (const problem of checked.problems) console.error(problem);
    fail(usage);
  }
  const entry = {
    action: "discount.add",
    target: { kind: "discount", id: checked.code.code },
    after: checked.code,
    reason: option("reason") ?? "added from the command line",
  };
  const [row] = runStatements(
    where,
    withAudit(db, commandActor(), entry, [addDiscountCodeStatement(db, checked.code)], now(), true),
  );
  console.info(`added: ${JSON.stringify(row)}`);
}
