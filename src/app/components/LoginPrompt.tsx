import { Link } from "./Link";
import { Title } from "./Title";
import { useT } from "../page/page-context";

/** What a visitor sees on a members-only screen: why, and the way in. */
export function LoginPrompt({ title, text }: { title: string; text: string }) {
  const t = useT();
  return (
    <section className="form-page">
      <Title text={title} />
      <h1>{title}</h1>
      <p>{text}</p>
      <div className="form__actions">
        <Link href="/login" className="button button--primary">
          {t("login.submit")}
        </Link>
        <Link href="/signup" className="button button--ghost">
          {t("nav.signup")}
        </Link>
      </div>
    </section>
  );
}
