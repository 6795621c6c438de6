import type { ReactNode } from "react";
import type { PageAssets } from "./assets";

/** The HTML shell around the app. Only #root is hydrated; the rest is the server's alone. */
const REACT_REFRESH_PREAMBLE = `import RefreshRuntime from "/@react-refresh";
RefreshRuntime.injectIntoGlobalHook(window);
window.$RefreshReg$ = () => {};
window.$RefreshSig$ = () => (type) => type;
window.__vite_plugin_react_preamble_installed__ = true;`;

/** Vite's dev server (not a build, not the tests): hot reloading needs React Refresh's preamble. */
const VITE_DEV_SERVER = import.meta.env.DEV && import.meta.env.MODE !== "test";

export function Document({ lang, assets, nonce, children }: { lang: string; assets: PageAssets; nonce: string | undefined; children: ReactNode }) {
  return (
    <html lang={lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="theme-color" content="#e8412c" />
        <link rel="manifest" href="/manifest.webmanifest" />
        <link rel="icon" href="/icons/icon.svg" type="image/svg+xml" />
        {assets.styles.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
        {VITE_DEV_SERVER && <script type="module" nonce={nonce} dangerouslySetInnerHTML={{ __html: REACT_REFRESH_PREAMBLE }} />}
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
