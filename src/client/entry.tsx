import { hydrateRoot } from "react-dom/client";
import { App } from "../app/App";
import { registerServiceWorker } from "../app/service-worker/app-update";
import { isChunkLoadError, reloadForChunkError } from "../app/page/chunk-reload";
import type { PageState } from "../app/page/page-state";
import { matchRoute } from "../shared/routes";
import { loadScreen } from "../app/screens";
import "../app/styles.css";
import { createI18n, type PageTexts } from "../shared/translator";

declare global {
  interface Window {
    __PAGE__: PageState;
  }
}

/**
 * The page's texts (decision 0042): the head asked for them already (a preload), so this fetch takes
 * that answer. Tried three times; a network that stays away fails like a chunk that does not load.
 */
async function loadTexts(path: string): Promise<PageTexts> {
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(path, { credentials: "same-origin" });
      if (response.ok) return (await response.json()) as PageTexts;
      throw new Error(`Failed to fetch ${path}: ${response.status}`);
    } catch (error) {
      if (attempt === 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 300 * attempt));
    }
  }
}

async function start() {
  const page = window.__PAGE__;
  const match = matchRoute(window.location.pathname);
  let texts: PageTexts;
  try {
    // The screen's code must be here before hydrating, or React would throw the server's markup away; so must the texts.
    [texts] = await Promise.all([loadTexts(page.texts), match && !page.error ? loadScreen(match.route.screen) : null]);
  } catch (error) {
    if (isChunkLoadError(error) && reloadForChunkError()) return;
    throw error;
  }
  const url = window.location.pathname + window.location.search + window.location.hash;
  hydrateRoot(
    document.getElementById("root")!,
    <App page={page} url={url} i18n={createI18n(page.locale, texts.messages, texts.variant)} />,
  );
  registerServiceWorker(page.locale);
}

void start();
