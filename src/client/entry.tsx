import { hydrateRoot } from "react-dom/client";
import { App } from "../app/App";
import { registerServiceWorker } from "../app/app-update";
import { isChunkLoadError, reloadForChunkError } from "../app/chunk-reload";
import type { PageState } from "../app/page-state";
import { matchRoute } from "../app/routes";
import { loadScreen } from "../app/screens";
import "../app/styles.css";

declare global {
  interface Window {
    __PAGE__: PageState;
  }
}

async function start() {
  const page = window.__PAGE__;
  const match = matchRoute(window.location.pathname);
  // The screen's code must be here before hydrating, or React would throw the server's markup away.
  if (match && !page.error) {
    try {
      await loadScreen(match.route.screen);
    } catch (error) {
      if (isChunkLoadError(error) && reloadForChunkError()) return;
      throw error;
    }
  }
  const url = window.location.pathname + window.location.search + window.location.hash;
  hydrateRoot(document.getElementById("root")!, <App page={page} url={url} />);
  registerServiceWorker(page.locale);
}

void start();
