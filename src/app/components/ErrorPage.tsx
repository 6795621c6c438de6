import { Component, type ErrorInfo, type ReactNode } from "react";
import { I18nContext, useT } from "../page/page-context";
import type { PageError } from "../page/page-state";
import { Link } from "./Link";
import { Title } from "./Title";
import { type I18n } from "../../shared/translator";

/** Status of anything thrown: its status, statusCode or response status; 500 when it has none (SPEC §8). */
export function errorStatus(error: unknown): number {
  if (typeof error === "object" && error !== null) {
    const e = error as { status?: unknown; statusCode?: unknown; response?: { status?: unknown } };
    for (const value of [e.status, e.statusCode, e.response?.status]) {
      if (typeof value === "number" && value >= 400 && value < 600) return value;
    }
  }
  return 500;
}

function errorMessage(error: unknown): string | null {
  return error instanceof Error && error.message ? error.message : null;
}

/** SPEC §8: the message (or "Error") and the status; a 404 says the page could not be found. */
export function ErrorPage({ error }: { error: PageError }) {
  const t = useT();
  const notFound = error.status === 404;
  const heading = notFound ? t("errors.page_not_found") : error.message || t("errors.error");
  return (
    <section className="error-page">
      <Title text={heading} />
      <p className="error-page__status">{error.status}</p>
      <h1>{heading}</h1>
      {notFound ? (
        <p>
          <Link href="/">{t("errors.back_home")}</Link>
        </p>
      ) : (
        <p>
          <a href="/">{t("errors.back_home")}</a>
        </p>
      )}
    </section>
  );
}

/** Shown when the error page itself fails: plain markup, no translations that could fail again. */
function ErrorPageFailure({ details, texts }: { details: string; texts: { title: string; home: string } }) {
  return (
    <section className="error-page">
      <h1>{texts.title}</h1>
      <pre className="error-page__details">{details}</pre>
      <a href="/">{texts.home}</a>
    </section>
  );
}

type BoundaryProps = { resetKey: string; children: ReactNode };
type BoundaryState = { error: unknown; key: string; showing: "screen" | "error-page-failed"; failure: string };

const FAILURE_TEXTS = { title: "An error occurred while showing the error page", home: "Go back to home" };

/** The fallback's texts in the page's language when translating still works, else the English ones. */
function failureTexts(i18n: I18n | null): { title: string; home: string } {
  try {
    if (i18n) return { title: i18n.t("errors.error_page_failed"), home: i18n.t("errors.go_back_home") };
  } catch {
    // Translation is what failed: the English texts of SPEC §8 are all that is left.
  }
  return FAILURE_TEXTS;
}

/** Catches a screen that fails to render and shows the error page; if that fails too, the fallback. */
export class ErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null, key: this.props.resetKey, showing: "screen", failure: "" };

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.resetKey !== state.key ? { error: null, key: props.resetKey, showing: "screen", failure: "" } : null;
  }

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(JSON.stringify({ event: "render_error", message: errorMessage(error), stack: info.componentStack }));
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    return (
      <ErrorPageBoundary error={this.state.error}>
        <ErrorPage error={{ status: errorStatus(this.state.error), message: errorMessage(this.state.error) }} />
      </ErrorPageBoundary>
    );
  }
}

class ErrorPageBoundary extends Component<{ error: unknown; children: ReactNode }, { failed: unknown }> {
  static override contextType = I18nContext;
  declare context: I18n | null;
  override state = { failed: null as unknown };
  static getDerivedStateFromError(failed: unknown) {
    return { failed };
  }
  override render() {
    if (this.state.failed === null) return this.props.children;
    const details = [errorMessage(this.props.error), errorMessage(this.state.failed)].filter(Boolean).join("\n");
    return <ErrorPageFailure details={details} texts={failureTexts(this.context)} />;
  }
}
