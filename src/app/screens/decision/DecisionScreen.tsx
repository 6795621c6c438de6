import { memberDate } from "../../../shared/dates";
import { useState, type FormEvent } from "react";
import useSWR from "swr";
import { APPEAL_TEXT, type Statement } from "../../../shared/moderation";
import { statementLines } from "../../../shared/statement-lines";
import { apiSend, ApiRequestError } from "../../page/api";
import { FormMessage } from "../../components/Form";
import { Link } from "../../components/Link";
import { Pending } from "../../components/Pending";
import { Title } from "../../components/Title";
import { usePage, useT, useWritingLocale } from "../../page/page-context";
import { decisionKey } from "../../page/page-data";
import type { ScreenProps } from "../../page/page-state";

type DecisionResponse = { decision: Statement };

/**
 * /decisions/{id}: a moderation decision about the member, their statement of reasons (DSA Art. 17):
 * what was decided, on which facts, under which rule of the terms, whether it was automated, and how
 * to appeal (once, within six months). Reached from the decision's mail, whose key opens it without
 * a login (a disabled member cannot log in).
 */
export default function DecisionScreen({ params, query }: ScreenProps) {
  const t = useT();
  const key = query.get("key");
  const { data, error, mutate } = useSWR<DecisionResponse, ApiRequestError>(decisionKey(params.id!, key));
  const date = useDate();
  return (
    <section className="decision">
      <Title text={t("moderation.title")} />
      <h1>{t("moderation.title")}</h1>
      {!data ? (
        error?.status === 404 || error?.status === 400 ? (
          <p className="notice">{t("moderation.errors.not_found")}</p>
        ) : (
          <Pending failed={error !== undefined} retry={() => void mutate()} />
        )
      ) : (
        <>
          <h2>{t("moderation.page.what")}</h2>
          <p data-testid="decision-outcome">{t(`moderation.outcomes.${data.decision.outcome}`)}</p>
          {data.decision.outcome === "reject_verification" && (
            <Link href="/profile#verification" className="button button--primary">
              {t("verification.try_again")}
            </Link>
          )}
          <p className="decision__date">{t("moderation.page.when", { date: date(data.decision.created_at) })}</p>
          <StatementList decision={data.decision} date={date} />
          <Appeal
            decision={data.decision}
            appealKey={key}
            date={date}
            saved={(next) => void mutate(next, { revalidate: false })}
          />
        </>
      )}
    </section>
  );
}

/** Every element of the statement (DSA Art. 17(3)), as the mail lists them; the moderator's own words marked as such. */
function StatementList({ decision, date }: { decision: Statement; date: (seconds: number) => string }) {
  const t = useT();
  // Whether a timed measure has ended: read once, when the page first draws.
  const [now] = useState(() => Math.floor(Date.now() / 1000));
  const lines = statementLines(t, decision, date, now, false).filter((line) => line.id !== "measure");
  return (
    <dl className="decision__statement">
      {lines.map((line) => (
        <div key={line.id} data-testid={`statement-${line.id}`}>
          <dt>{line.label}</dt>
          <dd className={line.id === "own_words" ? "decision__facts" : undefined}>{line.text}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A date of the decision in the page's language and the site's time zone, as the receipts give theirs (shared/dates.ts). */
function useDate(): (seconds: number) => string {
  const { settings } = usePage();
  const locale = useWritingLocale();
  return (seconds) => memberDate(seconds, locale, settings.time_zone);
}

function Appeal({
  decision,
  appealKey,
  date,
  saved,
}: {
  decision: Statement;
  appealKey: string | null;
  date: (seconds: number) => string;
  saved: (next: DecisionResponse) => void;
}) {
  const t = useT();
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const { appeal } = decision;
  const send = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      saved(
        await apiSend<DecisionResponse>("POST", "/api/appeal.php", {
          decision_id: decision.id,
          text,
          ...(appealKey ? { key: appealKey } : {}),
        }),
      );
    } catch (error) {
      setProblem(error instanceof ApiRequestError ? error.body.message : t("errors.try_again_later"));
    }
    setBusy(false);
  };
  let body;
  if (appeal)
    body = (
      <>
        <p data-testid="appeal-status">
          {t(`moderation.page.appeal_${appeal.status}`, { date: date(appeal.decided_at ?? appeal.created_at) })}
        </p>
        {appeal.note && (
          <>
            <h3>{t("moderation.page.appeal_reasons")}</h3>
            <p className="decision__facts" data-testid="appeal-note">
              {appeal.note}
            </p>
          </>
        )}
      </>
    );
  else if (!decision.restricts || decision.appeal_until === null) body = <p>{t("moderation.page.no_appeal")}</p>;
  else if (!decision.can_appeal) body = <p>{t("moderation.page.appeal_closed")}</p>;
  else
    body = (
      <form onSubmit={(event) => void send(event)} className="form decision__appeal">
        <p>{t("moderation.page.appeal_intro", { date: date(decision.appeal_until!) })}</p>
        <div className="field">
          <label htmlFor="appeal-text" className="field__label">
            {t("moderation.page.appeal_label")}
          </label>
          <textarea
            id="appeal-text"
            className="field__input field__textarea"
            value={text}
            onChange={(event) => setText(event.target.value)}
            minLength={APPEAL_TEXT.min}
            maxLength={APPEAL_TEXT.max}
            required
            rows={5}
          />
          <p className="field__hint">{t("moderation.page.appeal_hint", APPEAL_TEXT)}</p>
        </div>
        <FormMessage text={problem} />
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? t("moderation.page.appeal_sending") : t("moderation.page.appeal_send")}
        </button>
      </form>
    );
  return (
    <>
      <h2>{t("moderation.page.appeal_title")}</h2>
      {body}
      {decision.restricts && (
        <p className="hint" data-testid="other-remedies">
          {decision.out_of_court ? <OutOfCourt body={decision.out_of_court} /> : t("moderation.page.other_remedies")}
        </p>
      )}
    </>
  );
}

/** The out-of-court body the company names (DSA Art. 21), its name linking to its site. */
function OutOfCourt({ body }: { body: { name: string; url: string } }) {
  const t = useT();
  const [before, after] = t("moderation.page.other_remedies_body", { name: "\u0000", url: body.url }).split("\u0000");
  return (
    <>
      {before}
      <a href={body.url} rel="noopener noreferrer" target="_blank">
        {body.name}
      </a>
      {after}
    </>
  );
}
