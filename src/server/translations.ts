import type { I18n, Messages, PageTexts, VariantMessages } from "../shared/translator";
import { serverI18n } from "./i18next";
import { LANGUAGES, VARIANTS, variantFor, type Language, type Variant } from "../shared/locales";

/** Every locale file, bundled; a language of LANGUAGES without its file stops the Worker at once. */
const FILES = import.meta.glob<Messages>("../../locales/*.json", { eager: true, import: "default" });

export const MESSAGES = Object.fromEntries(
  LANGUAGES.map((language) => {
    const messages = FILES[`../../locales/${language}.json`];
    if (!messages) throw new Error(`locales/${language}.json is missing`);
    return [language, messages];
  }),
) as Record<Language, Messages>;

type Tree = { [key: string]: unknown };
const isTree = (value: unknown): value is Tree => typeof value === "object" && value !== null && !Array.isArray(value);

/** The texts of `tree` that `change` alters, changed, in the same shape (arrays whole); null when none. */
function changedTexts(tree: unknown, change: (text: string) => string): unknown {
  if (typeof tree === "string") return change(tree) === tree ? null : change(tree);
  if (Array.isArray(tree))
    return tree.some((item) => changedTexts(item, change) !== null)
      ? tree.map((item) => (changedTexts(item, change) as string | null) ?? item)
      : null;
  if (!isTree(tree)) return null;
  const out = Object.entries(tree).flatMap(([key, value]) => {
    const changed = changedTexts(value, change);
    return changed === null ? [] : [[key, changed] as const];
  });
  return out.length > 0 ? Object.fromEntries(out) : null;
}

/** `over` laid on `base`, key by key (arrays replaced whole). */
export function overlay(base: Tree, over: Tree): Tree {
  const out: Tree = { ...base };
  for (const [key, value] of Object.entries(over))
    out[key] = isTree(value) && isTree(base[key]) ? overlay(base[key], value) : value;
  return out;
}

/**
 * Swiss German writes ss for ß: every German text is spelt that way for a Swiss site when it is
 * loaded, so a ß the German file gains later never reaches it (decision 0039). de-CH.json holds only
 * the words that really differ.
 */
const SPELLING: Partial<Record<Variant, (text: string) => string>> = {
  "de-CH": (text) => text.replaceAll("ß", "ss"),
};

/**
 * A regional variant's own texts: its base language's texts respelt where the country spells
 * differently, under the variant file's words. Only what differs from the base language, which
 * i18next falls back to for everything else.
 */
export const VARIANT_MESSAGES = Object.fromEntries(
  VARIANTS.map((variant) => {
    const file = FILES[`../../locales/${variant}.json`];
    if (!file) throw new Error(`locales/${variant}.json is missing`);
    const spelling = SPELLING[variant];
    if (!spelling) return [variant, file];
    const respelt = (changedTexts(MESSAGES[baseOf(variant)], spelling) as Tree | null) ?? {};
    // The variant's own words are respelt too, so not even a slip in its file brings a ß back.
    const own = overlay(respelt, file);
    return [variant, overlay(own, (changedTexts(own, spelling) as Tree | null) ?? {})];
  }),
) as Record<Variant, Messages>;

function baseOf(variant: Variant): Language {
  return variant.slice(0, 2) as Language;
}

/** A language's whole tree as a site of `country` reads it (the legal texts are read as a tree, not through i18next). */
export function textsFor(language: Language, country?: string): Messages {
  const variant = country ? variantFor(language, country) : null;
  return variant ? overlay(MESSAGES[language], VARIANT_MESSAGES[variant]) : MESSAGES[language];
}

const instances = new Map<string, I18n>();
const forClients = new Map<string, Messages>();

/**
 * The texts a page needs in the browser: all but the mail texts, the legal texts and the interests'
 * names, which only the Worker uses (the static pages arrive filled in through GET /api/legal.php,
 * interests with their names through the API).
 */
function withoutServerTexts(messages: Messages): Messages {
  const {
    mail: _mail,
    legal_text: _legalText,
    interest_names: _interestNames,
    ...rest
  } = messages as Messages & { mail?: unknown; legal_text?: unknown; interest_names?: unknown };
  return rest;
}

function clientMessages(language: Language): Messages {
  let messages = forClients.get(language);
  if (!messages) {
    messages = withoutServerTexts(MESSAGES[language]);
    forClients.set(language, messages);
  }
  return messages;
}

/** The variant a page of a site of `country` in `language` reads, with only its own texts, for the browser; null when none. */
function clientVariant(language: Language, country: string): VariantMessages | null {
  const variant = variantFor(language, country);
  if (!variant) return null;
  let messages = forClients.get(variant);
  if (!messages) {
    messages = withoutServerTexts(VARIANT_MESSAGES[variant]);
    forClients.set(variant, messages);
  }
  return { tag: variant, messages };
}

/**
 * One i18next instance per language (and regional variant) per isolate: they are read-only once
 * made. `country` is the site's own country (its first); a variant of the language for it is used
 * with the language as its fallback.
 */
export function i18nFor(language: Language, country?: string): I18n {
  const variant = country ? variantFor(language, country) : null;
  const tag = variant ?? language;
  let instance = instances.get(tag);
  if (!instance) {
    instance = serverI18n(
      language,
      MESSAGES[language],
      variant ? { tag: variant, messages: VARIANT_MESSAGES[variant] } : null,
    );
    instances.set(tag, instance);
  }
  return instance;
}

/** A page's texts as one file for the browser: its body and the address it is served under. */
export type TextsFile = { tag: string; body: string; path: string };

const textFiles = new Map<string, Promise<TextsFile>>();

/**
 * The texts a page of a site of `country` in `language` needs in the browser (the language's and its
 * variant's own), as the JSON file served at `/texts/<tag>.<hash>.json`: the hash is of the content, so
 * the browser keeps the file until the texts change (decision 0042). Made once per tag and isolate.
 */
export function textsFile(language: Language, country: string): Promise<TextsFile> {
  const variant = clientVariant(language, country);
  const tag = variant?.tag ?? language;
  let file = textFiles.get(tag);
  if (!file) {
    const texts: PageTexts = { messages: clientMessages(language), variant };
    const body = JSON.stringify(texts);
    file = crypto.subtle.digest("SHA-256", new TextEncoder().encode(body)).then((digest) => {
      const hash = [...new Uint8Array(digest).subarray(0, 6)]
        .map((byte) => byte.toString(16).padStart(2, "0"))
        .join("");
      return { tag, body, path: `/texts/${tag}.${hash}.json` };
    });
    textFiles.set(tag, file);
  }
  return file;
}

/** The texts file of a tag (a language or a regional variant), whatever hash was asked for; null for an unknown tag. */
export function textsFileOf(tag: string): Promise<TextsFile> | null {
  if ((LANGUAGES as readonly string[]).includes(tag)) return textsFile(tag as Language, "");
  if ((VARIANTS as readonly string[]).includes(tag)) return textsFile(baseOf(tag as Variant), tag.slice(3));
  return null;
}
