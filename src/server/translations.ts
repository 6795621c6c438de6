import { createI18n, type I18n, type Messages } from "../shared/translator";
import { LANGUAGES, type Language } from "../shared/locales";

/** Every locale file, bundled; a language of LANGUAGES without its file stops the Worker at once. */
const FILES = import.meta.glob<Messages>("../../locales/*.json", { eager: true, import: "default" });

export const MESSAGES = Object.fromEntries(
  LANGUAGES.map((language) => {
    const messages = FILES[`../../locales/${language}.json`];
    if (!messages) throw new Error(`locales/${language}.json is missing`);
    return [language, messages];
  }),
) as Record<Language, Messages>;

const instances = new Map<Language, I18n>();
const forClients = new Map<Language, Messages>();

/**
 * The texts a page needs in the browser: all but the mail texts, the legal texts and the interests'
 * names, which only the Worker uses (the static pages arrive filled in through GET /api/legal.php,
 * interests with their names through the API).
 */
export function clientMessages(language: Language): Messages {
  let messages = forClients.get(language);
  if (!messages) {
    const { mail: _mail, legal_text: _legalText, interest_names: _interestNames, ...rest } = MESSAGES[language] as Messages & { mail?: unknown; legal_text?: unknown; interest_names?: unknown };
    messages = rest;
    forClients.set(language, messages);
  }
  return messages;
}

/** One translator per language per isolate: they are read-only once made. */
export function i18nFor(language: Language): I18n {
  let instance = instances.get(language);
  if (!instance) {
    instance = createI18n(language, MESSAGES[language]);
    instances.set(language, instance);
  }
  return instance;
}
