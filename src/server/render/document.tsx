import type { ReactNode } from "react";
import { ENTRY_SKIPPED_SCRIPT } from "../../app/components/EntryWarning";
import type { PageAssets } from "./assets";
import type { HeadTags } from "./seo";

/** The HTML shell around the app. Only #root is hydrated; the rest is the server's alone. */
const REACT_REFRESH_PREAMBLE = `import RefreshRuntime from "/@react-refresh";
RefreshRuntime.injectIntoGlobalHook(window);
window.$RefreshReg$ = () => {};
window.$RefreshSig$ = () => (type) => type;
window.__vite_plugin_react_preamble_installed__ = true;`;

/** Vite's dev server (not a build, not the tests): hot reloading needs React Refresh's preamble. */
const VITE_DEV_SERVER = import.meta.env.DEV && import.meta.env.MODE !== "test";

/** `texts`: the address of the page's texts, fetched before hydration (decision 0042), so asked for at once. */
type DocumentProps = {
  lang: string;
  assets: PageAssets;
  texts: string;
  nonce: string | undefined;
  head: HeadTags;
  children: ReactNode;
};

export function Document({ lang, assets, texts, nonce, head, children }: DocumentProps) {
  return (
    <html lang={lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="theme-color" content="#e8412c" />
        <meta name="description" content={head.description} />
        {head.noindex && <meta name="robots" content="noindex" />}
        <link rel="canonical" href={head.canonical} />
        {head.alternates.map((a) => (
          <link key={a.hreflang} rel="alternate" hrefLang={a.hreflang} href={a.href} />
        ))}
        <meta property="og:type" content="website" />
        <meta property="og:site_name" content={head.og.siteName} />
        <meta property="og:title" content={head.og.title} />
        <meta property="og:description" content={head.description} />
        <meta property="og:url" content={head.og.url} />
        <meta property="og:locale" content={head.og.locale} />
        {head.og.image && <meta property="og:image" content={head.og.image} />}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: ENTRY_SKIPPED_SCRIPT }} />
        <link rel="manifest" href="/manifest.webmanifest" />
        <link rel="icon" href="/icons/icon.svg" type="image/svg+xml" />
        {/* iOS puts this on the home screen and rounds it itself: the full-bleed icon. */}
        <link rel="apple-touch-icon" href="/icons/icon-maskable-512.png" />
        <link rel="preload" href={texts} as="fetch" crossOrigin="anonymous" />
        {assets.styles.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
        {VITE_DEV_SERVER && (
          <script type="module" nonce={nonce} dangerouslySetInnerHTML={{ __html: REACT_REFRESH_PREAMBLE }} />
        )}
        {assets.preloads.map((href) => (
          <link key={href} rel="modulepreload" href={href} />
        ))}
      </head>
      <body>
        <div id="root">{children}</div>
      </body>
    </html>
  );
}
