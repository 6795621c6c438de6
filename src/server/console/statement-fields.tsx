/**
 * What an operator fills in for a statement of reasons (docs/decisions/0061): the rule, the facts
 * chosen from that rule's templates (the member reads them in their language), the operator's own
 * words (marked as such), the law for illegal content, the period of a timed measure, the item a
 * removal takes. Console texts are English; the templates are shown in English here.
 */
import { FACT_TEMPLATES, MEASURE_PERIODS, type MeasurePeriod } from "../../shared/moderation";
import type { ConsoleEnv } from "./console-context";
import { GroundPicker } from "./moderation-parts";

type T = ConsoleEnv["Variables"]["t"];

export const PERIODS = Object.keys(MEASURE_PERIODS) as [MeasurePeriod, ...MeasurePeriod[]];
const PERIOD_LABELS: Record<MeasurePeriod, string> = {
  day: "24 hours",
  week: "7 days",
  month: "30 days",
  lifted: "until lifted",
};

export function PeriodPicker() {
  return (
    <label style={{ display: "block" }}>
      For (chat, search and suspension){" "}
      <select name="period" defaultValue="">
        <option value="">choose…</option>
        {PERIODS.map((period) => (
          <option key={period} value={period}>
            {PERIOD_LABELS[period]}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The item "remove one item" takes: the text, one shown or waiting photo, the reported message. */
export function ItemPicker({
  photos,
  hasText,
  messageId,
}: {
  photos: readonly { id: number; status: string }[];
  hasText: boolean;
  messageId: number | null;
}) {
  return (
    <label style={{ display: "block" }}>
      Item to remove{" "}
      <select name="item" defaultValue="">
        <option value="">choose…</option>
        {messageId !== null && <option value="message">{`the reported message ${messageId}`}</option>}
        {hasText && <option value="text">the profile's text</option>}
        {photos
          .filter((photo) => photo.status === "active" || photo.status === "pending")
          .map((photo) => (
            <option key={photo.id} value={`photo:${photo.id}`}>{`photo #${photo.id} (${photo.status})`}</option>
          ))}
      </select>
    </label>
  );
}

/** The rule, the facts chosen from its templates, the operator's own words, the law for illegal content. */
export function StatementFields({
  t,
  grounds,
  required = false,
}: {
  t: T;
  grounds?: Parameters<typeof GroundPicker>[0]["grounds"];
  required?: boolean;
}) {
  const shown = grounds ?? (Object.keys(FACT_TEMPLATES) as (keyof typeof FACT_TEMPLATES)[]);
  return (
    <>
      <GroundPicker t={t} required={required} grounds={grounds} />
      <label style={{ display: "block" }}>
        Facts (the member reads them in their language){" "}
        <select name="fact_template" defaultValue="">
          <option value="">none: my own words below</option>
          {shown.map((ground) => (
            <optgroup key={ground} label={t(`moderation.grounds.${ground}.name`)}>
              {FACT_TEMPLATES[ground].map((template) => (
                <option key={template} value={`${ground}.${template}`}>
                  {t(`moderation.fact_templates.${ground}.${template}`)}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </label>
      <label style={{ display: "block" }}>
        In your own words (optional; the statement marks them as the moderator's)
        <br />
        <textarea name="facts" rows={3} cols={70} maxLength={2000} />
      </label>
      {shown.includes("illegal") && (
        <label style={{ display: "block" }}>
          The law concerned (illegal content only){" "}
          <input name="law" size={50} maxLength={300} placeholder="e.g. § 201a StGB (DE), Art. 139h Sr (NL)" />
        </label>
      )}
    </>
  );
}
