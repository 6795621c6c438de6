/**
 * Discount codes (finance or admin; issue 24 point 5): the codes for everyone, adding one by the
 * rules `npm run discounts -- add` uses (services/discounts.ts checkNewDiscountCode), and ending one,
 * each with its reason in the audit log. A generous code (over SECOND_OPERATOR_DISCOUNT_ABOVE percent,
 * no last day, unlimited uses) is a request a second finance operator confirms (second-operator.ts).
 */
import { Hono } from "hono";
import * as v from "valibot";
import { endDiscountCode, listDiscountCodes } from "../../db/discounts";
import { addDiscountCodeStatement, checkNewDiscountCode } from "../../services/discounts";
import { DiscountCodeText } from "../../../shared/discounts";
import { CURRENCIES, PAYMENT_METHODS } from "../../../shared/payments";
import { ActionForm } from "../action-form";
import { runAudited } from "../audited-action";
import type { ConsoleEnv, ConsoleScreen } from "../console-context";
import { actionDone, readForm, Reason, requireConfirmation } from "../console-forms";
import { Checks, FormError, ReasonField, renderConsole, when } from "../console-page";
import { ConsoleRefusal } from "../console-refusal";
import { askSecondOperator, codeNeedsSecondOperator, discountLimit } from "../second-operator";

const text = v.optional(v.string());
const NewCode = v.object({
  code: v.string(),
  percentage: v.string(),
  minimumCents: text,
  country: text,
  currency: text,
  expiresAt: text,
  validity: text,
  paymentMethods: v.optional(v.union([v.string(), v.array(v.string())])),
  reason: Reason,
});
const EndCode = v.object({ reason: Reason });

const routes = new Hono<ConsoleEnv>()
  .get("/", async (c) => {
    const codes = await listDiscountCodes(c.var.db);
    const now = Math.floor(Date.now() / 1000);
    return renderConsole(
      c,
      "Discount codes",
      <>
        <table>
          <thead>
            <tr>
              <th>Code</th>
              <th>%</th>
              <th>Minimum</th>
              <th>Country</th>
              <th>Currency</th>
              <th>Validity</th>
              <th>Methods</th>
              <th>Ends</th>
              <th>Status</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {codes.map((code) => (
              <tr key={code.id}>
                <td>{code.code}</td>
                <td>{code.percentage}</td>
                <td>{code.minimumCents}</td>
                <td>{code.country ?? "any"}</td>
                <td>{code.currency ?? "any"}</td>
                <td>{code.validity}</td>
                <td>{code.paymentMethods ? (JSON.parse(code.paymentMethods) as string[]).join(", ") : "all"}</td>
                <td>{code.expiresAt ? when(code.expiresAt) : "never"}</td>
                <td>
                  {code.status === "active" && code.expiresAt !== null && code.expiresAt <= now
                    ? "expired"
                    : code.status}
                </td>
                <td>
                  {code.status === "active" && (
                    <ActionForm
                      action={`/discounts/${encodeURIComponent(code.code)}/end`}
                      label="End"
                      confirm="End this code for everyone: no order can use it from now on."
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {codes.length === 0 && <p className="notice">No codes yet.</p>}
        <form method="post" action="/discounts">
          <fieldset>
            <legend>Add a code</legend>
            <label>
              Code <input name="code" required pattern="[A-Za-z0-9\-]{3,40}" />
            </label>
            <label>
              Percentage <input name="percentage" required type="number" min={1} max={100} />
            </label>
            <label>
              Minimum price (minor units, before the discount) <input name="minimumCents" type="number" min={0} />
            </label>
            <label>
              Country (two letters, empty for all) <input name="country" size={3} />
            </label>
            <label>
              Currency{" "}
              <select name="currency" defaultValue="">
                <option value="">any</option>
                {CURRENCIES.map((currency) => (
                  <option key={currency}>{currency}</option>
                ))}
              </select>
            </label>
            <label>
              Last day <input name="expiresAt" type="date" />
            </label>
            <label>
              Validity{" "}
              <select name="validity" defaultValue="once_per_user">
                <option value="once_per_user">once per member</option>
                <option value="unlimited">unlimited</option>
              </select>
            </label>
            <Checks label="Methods (none ticked: all)" name="paymentMethods" values={PAYMENT_METHODS} />
            <p>
              A code of more than {discountLimit(c.env)}% off, without a last day or with unlimited uses waits for a
              second finance operator to confirm it (Waiting requests).
            </p>
            <ReasonField />
            <button type="submit">Add</button>
            <FormError />
          </fieldset>
        </form>
      </>,
    );
  })
  .post("/", async (c) => {
    const { reason, paymentMethods, ...typed } = await readForm(c, NewCode);
    const methods = paymentMethods === undefined ? undefined : [paymentMethods].flat().join(",");
    const checked = checkNewDiscountCode({ ...typed, paymentMethods: methods });
    if ("problems" in checked) throw new ConsoleRefusal(400, "invalid_parameter", checked.problems.join("; "));
    const db = c.var.db;
    const why = codeNeedsSecondOperator(checked.code, discountLimit(c.env));
    if (why) {
      // A generous code waits for a second finance operator (docs/decisions/0060).
      await askSecondOperator(c, {
        action: "discount.add",
        target: { kind: "discount", id: checked.code.code },
        summary: `Add the code ${checked.code.code}: ${checked.code.percentage}% off (${why})`,
        details: { code: checked.code },
        reason,
      });
      return actionDone(c, "/discounts");
    }
    await runAudited(
      c,
      { action: "discount.add", target: { kind: "discount", id: checked.code.code }, after: checked.code, reason },
      [addDiscountCodeStatement(db, checked.code)],
    );
    return actionDone(c, "/discounts");
  })
  .post("/:code/end", async (c) => {
    await requireConfirmation(c);
    const { reason } = await readForm(c, EndCode);
    const parsed = v.safeParse(DiscountCodeText, c.req.param("code"));
    if (!parsed.success) throw new ConsoleRefusal(404, "not_found", "There is no such code.");
    const ended = await runAudited(
      c,
      {
        action: "discount.end",
        target: { kind: "discount", id: parsed.output },
        before: { status: "active" },
        after: { status: "inactive" },
        reason,
      },
      [endDiscountCode(c.var.db, parsed.output)],
      { onlyIfChanged: true },
    );
    if (!ended)
      throw new ConsoleRefusal(409, "nothing_changed", `${parsed.output} is not an active code for everyone.`);
    return actionDone(c, "/discounts");
  });

export const discountsScreen: ConsoleScreen = { path: "/discounts", label: "Discounts", role: "finance", routes };
