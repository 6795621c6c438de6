import type { i18n } from "i18next";
import da from "../../locales/da.json";
import de from "../../locales/de.json";
import en from "../../locales/en.json";
import es from "../../locales/es.json";
import fi from "../../locales/fi.json";
import fr from "../../locales/fr.json";
import it from "../../locales/it.json";
import nb from "../../locales/nb.json";
import nl from "../../locales/nl.json";
import pl from "../../locales/pl.json";
import sv from "../../locales/sv.json";
import { createI18n, type Messages } from "../app/i18n-instance";
import type { Language } from "../shared/locales";

export const MESSAGES: Record<Language, Messages> = { da, de, en, es, fi, fr, it, nb, nl, pl, sv };

const instances = new Map<Language, i18n>();
const forClients = new Map<Language, Messages>();

/** The texts a page needs in the browser: all but the mail texts, which only the Worker uses. */
export function clientMessages(language: Language): Messages {
  let messages = forClients.get(language);
  if (!messages) {
    const { mail: _mail, ...rest } = MESSAGES[language] as Messages & { mail?: unknown };
    messages = rest;
    forClients.set(language, messages);
  }
  return messages;
}

/** One i18next instance per language per isolate: they are read-only once made. */
export function i18nFor(language: Language): i18n {
  let instance = instances.get(language);
  if (!instance) {
    instance = createI18n(language, MESSAGES[language]);
    instances.set(language, instance);
  }
  return instance;
}
