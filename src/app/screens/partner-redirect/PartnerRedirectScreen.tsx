import { useEffect, useState } from "react";
import useSWR from "swr";
import type { ApiRequestError } from "../../page/api";
import { ErrorPage } from "../../components/ErrorPage";
import { Link } from "../../components/Link";
import { Pending } from "../../components/Pending";
import { Title } from "../../components/Title";
import { useSettings, useT } from "../../page/page-context";
import { partnerKey } from "../../page/page-data";
import type { ScreenProps } from "../../page/page-state";

type PartnerAnswer = { partner: { name: string; url: string; seconds: number } };

/**
 * The redirect to a partner (SPEC §9): says where the visitor is going, counts the seconds down,
 * then goes. The address comes from the site's allow-list through the server, never from the URL.
 */
export default function PartnerRedirectScreen({ params }: ScreenProps) {
  const { data, error, mutate } = useSWR<PartnerAnswer, ApiRequestError>(partnerKey(params.partner!));
  if (error && error.status < 500) return <ErrorPage error={{ status: error.status, message: null }} />;
  if (!data) return <Pending failed={error !== undefined} retry={() => void mutate()} />;
  return <Countdown {...data.partner} />;
}

function Countdown({ name, url, seconds }: PartnerAnswer["partner"]) {
  const t = useT();
  const settings = useSettings();
  const [left, setLeft] = useState(seconds);

  useEffect(() => {
    if (left <= 0) {
      window.location.assign(url);
      return;
    }
    const timer = setTimeout(() => setLeft((n) => n - 1), 1000);
    return () => clearTimeout(timer);
  }, [left, url]);

  return (
    <section className="form-page partner-redirect">
      <Title text={t("legal.redirect.title", { partner: name })} />
      <h1>{t("legal.redirect.title", { partner: name })}</h1>
      <p>{t("legal.redirect.text", { partner: name, site: settings.name })}</p>
      <p className="partner-redirect__countdown" aria-live="polite">
        {t("legal.redirect.countdown", { count: Math.max(left, 0) })}
      </p>
      <a className="button button--primary" href={url} rel="nofollow noopener">
        {t("legal.redirect.go", { partner: name })}
      </a>
      <p className="form__alternative">
        <Link href="/members">{t("legal.redirect.back", { site: settings.name })}</Link>
      </p>
    </section>
  );
}
