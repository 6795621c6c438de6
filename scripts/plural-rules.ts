/**
 * The plural rules of the texts (decision 0039), as one pure function the check (scripts/check-plurals.ts,
 * part of `npm run check`) and its test share:
 *
 * 1. a plural family (`key_one`, `key_few`, `key_many`, `key_other` ...) has in every language exactly
 *    the forms that language's CLDR rules use (Intl.PluralRules), and no plain `key` beside it; a
 *    regional variant (de-CH ...) holds only forms its language uses, of families its language has;
 * 2. a text with a number in it is a plural family that takes the number as `count`: any placeholder
 *    not known to hold text, or a number that counts no noun (NOT_COUNTS), is a number. A legal text
 *    may name a number of LEGAL_AMOUNTS instead: it is filled with its own plural family;
 * 3. in the code, `t("key", { ... })`, `key: "key", values: { ... }` and `"key": { ... }` pass `count`
 *    to a plural family, and pass no number but `count` to a key without plural forms.
 *
 * Keys built at run time (`t(\`pages.${page}.intro\`)`) are out of its reach; their callers pass
 * `count` where the text has one (the key-parity test renders them).
 */
import { LEGAL_AMOUNTS } from "../src/shared/legal";

export type Tree = { [key: string]: unknown };

const SUFFIXES = ["zero", "one", "two", "few", "many", "other"] as const;
const FAMILY = new RegExp(`^(.+)_(${SUFFIXES.join("|")})$`);

/** Placeholders that hold text, not numbers (names ending in _part are rendered texts too). */
const TEXT_VALUES = new Set([
  "address",
  "browser",
  "capital",
  "city",
  "code",
  "company",
  "country",
  "date",
  "end",
  "law",
  "sites",
  "start",
  "domain",
  "email",
  "example",
  "field",
  "full_address",
  "gift",
  "id",
  "kind",
  "kinds",
  "method",
  "methods",
  "minimum",
  "mobile",
  "money",
  "name",
  "names",
  "number",
  "numbers",
  "outcome",
  "partner",
  "peer",
  "phone",
  "price",
  "postal_town",
  "privacy",
  "reason",
  "register",
  "registration",
  "site",
  "subject",
  "suggestion",
  "system",
  "terms",
  "text",
  "time",
  "tradenames",
  "url",
  "vat",
  "when",
]);
const isText = (name: string) => TEXT_VALUES.has(name) || name.endsWith("_part");

/** Numbers that count no noun, so no language needs a plural form for them. */
export const NOT_COUNTS: Record<string, string> = {
  percentage: "a percentage, written with %",
  rate: "a VAT rate, written with %",
  step: "a position (step 2 of 5)",
  total: "the number of steps beside a position (step 2 of 5)",
  n: "a position (photo 3; 3 of {count} photos, where the noun goes with count)",
};

/** Single texts whose number counts no noun. */
export const NOT_COUNTED_KEYS: Record<string, string> = {
  "validation.date_of_birth_min_age": "an age written as 18+",
  "errors.photo_too_large": "megabytes written with the symbol MB",
  "moderation.page.appeal_hint": "a range of characters whose upper end is always in the hundreds",
};

const isNumber = (name: string) => name !== "count" && !isText(name) && !Object.hasOwn(NOT_COUNTS, name);

export function flatten(tree: unknown, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof tree === "string") out.set(prefix, tree);
  else if (tree && typeof tree === "object")
    for (const [key, value] of Object.entries(tree))
      for (const [k, v] of flatten(value, prefix ? `${prefix}.${key}` : key)) out.set(k, v);
  return out;
}

/**
 * Keys grouped into plural families: the family's key with its forms, or a plain key with none. One
 * lone form other than _one is a plain key that happens to end like one (sessions.none_other): every
 * language served has a _one form, so a real family has at least two.
 */
export function families(keys: Iterable<string>): Map<string, Set<string>> {
  const grouped = new Map<string, Map<string, string>>();
  for (const key of keys) {
    const match = FAMILY.exec(key);
    const base = match ? match[1]! : key;
    const forms = grouped.get(base) ?? new Map<string, string>();
    if (match) forms.set(match[2]!, key);
    grouped.set(base, forms);
  }
  const out = new Map<string, Set<string>>();
  for (const [base, forms] of grouped) {
    const [only] = [...forms.entries()];
    if (forms.size === 1 && only![0] !== "one") out.set(only![1], new Set());
    else out.set(base, new Set(forms.keys()));
  }
  return out;
}

const isForm = (key: string, known: Map<string, Set<string>>) => {
  const match = FAMILY.exec(key);
  return match !== null && (known.get(match[1]!)?.has(match[2]!) ?? false);
};

export const pluralCategories = (language: string) =>
  new Intl.PluralRules(language).resolvedOptions().pluralCategories as string[];

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

/** Offences in the locale files: languages by code (da, de ...), variants by tag (de-CH ...). */
export function localeOffences(languages: Record<string, Tree>, variants: Record<string, Tree> = {}): string[] {
  const offences: string[] = [];
  for (const [language, tree] of Object.entries(languages)) {
    const texts = flatten(tree);
    const needed = pluralCategories(language);
    const grouped = families(texts.keys());
    for (const [base, forms] of grouped) {
      if (forms.size === 0) continue;
      for (const category of needed)
        if (!forms.has(category))
          offences.push(`${language}: ${base} lacks _${category} (CLDR ${language}: ${needed.join(", ")})`);
      for (const form of forms)
        if (!needed.includes(form))
          offences.push(
            `${language}: ${base}_${form} is not a plural form of ${language} (CLDR: ${needed.join(", ")})`,
          );
      if (texts.has(base)) offences.push(`${language}: ${base} is both a plain text and a plural family`);
    }
    for (const [key, text] of texts) {
      // The translator's placeholders take one brace ({site}); two would reach the member as they stand.
      if (text.includes("{{"))
        offences.push(`${language}: ${key} has a placeholder in double braces: write {name}, with one brace`);
      if (isForm(key, grouped) || Object.hasOwn(NOT_COUNTED_KEYS, key)) continue;
      const legal = key.startsWith("legal_text.");
      for (const name of placeholders(text)) {
        if (name === "count") offences.push(`${language}: ${key} takes {count} but has no plural forms`);
        else if (isNumber(name) && !(legal && Object.hasOwn(LEGAL_AMOUNTS, name)))
          offences.push(
            `${language}: ${key} has the number {${name}} without plural forms: write it as {count} in ${key}_one, _other ...`,
          );
      }
    }
    for (const unit of new Set(Object.values(LEGAL_AMOUNTS))) {
      if (!grouped.get(`legal_text.amounts.${unit}`)?.size)
        offences.push(`${language}: legal_text.amounts.${unit} is missing (a legal text's number is told with it)`);
    }
  }
  for (const [tag, tree] of Object.entries(variants)) {
    const language = tag.slice(0, 2);
    const base = languages[language];
    if (!base) {
      offences.push(`${tag}: no ${language} file to fall back to`);
      continue;
    }
    const baseFamilies = families(flatten(base).keys());
    const needed = pluralCategories(tag);
    for (const [key, text] of flatten(tree))
      if (text.includes("{{"))
        offences.push(`${tag}: ${key} has a placeholder in double braces: write {name}, with one brace`);
    for (const [key, forms] of families(flatten(tree).keys())) {
      if (!baseFamilies.has(key)) offences.push(`${tag}: ${key} is not a text of ${language}`);
      else if (baseFamilies.get(key)!.size === 0 && forms.size > 0)
        offences.push(`${tag}: ${key} has plural forms but ${language} has a single text`);
      for (const form of forms)
        if (!needed.includes(form)) offences.push(`${tag}: ${key}_${form} is not a plural form of ${tag}`);
    }
  }
  return offences;
}

/** The object literal starting at `open` ("{"), to its matching brace, or null. */
function objectAt(code: string, open: number): string | null {
  let depth = 0;
  let quote: string | null = null;
  for (let i = open; i < code.length; i++) {
    const ch = code[i]!;
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'" || ch === "`") quote = ch;
    else if (ch === "{" || ch === "(" || ch === "[") depth++;
    else if (ch === "}" || ch === ")" || ch === "]") {
      depth--;
      if (depth === 0) return code.slice(open + 1, i);
    }
  }
  return null;
}

/** The names of an object literal's own properties (`a: 1`, `b`, not what a spread brings). */
function propertyNames(body: string): string[] {
  const names: string[] = [];
  let depth = 0;
  let start = 0;
  let quote: string | null = null;
  const parts: string[] = [];
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'" || ch === "`") quote = ch;
    else if ("{([".includes(ch)) depth++;
    else if ("})]".includes(ch)) depth--;
    else if (ch === "," && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  for (const part of parts) {
    const m = /^\s*(\w+)\s*(?::|$)/.exec(part);
    if (m) names.push(m[1]!);
  }
  return names;
}

const CALLS = [
  /\bt\(\s*"([a-z_]+(?:\.[\w-]+)+)"\s*(,\s*\{)?/g, // t("key", { ... })
  /\bkey:\s*"([a-z_]+(?:\.[\w-]+)+)"\s*,\s*values:\s*(\{)/g, // { key: "key", values: { ... } }
  /"([a-z_]+(?:\.[\w-]+)+)":\s*(\{)/g, // "key": { ... } (a table of values by key)
];

/** Offences in the code, given the English texts (every language has the same families) and the sources by file. */
export function codeOffences(english: Tree, sources: Record<string, string>): string[] {
  const known = families(flatten(english).keys());
  const offences: string[] = [];
  for (const [file, code] of Object.entries(sources)) {
    for (const pattern of CALLS) {
      for (const m of code.matchAll(pattern)) {
        const key = m[1]!;
        const forms = known.get(key);
        if (!forms) continue; // not a locale key (the key-parity test finds keys that are missing)
        const line = code.slice(0, m.index).split("\n").length;
        const body = m[2] ? objectAt(code, m.index! + m[0].length - 1) : null;
        const names = body === null ? [] : propertyNames(body);
        const spread = body !== null && /\.\.\./.test(body);
        if (forms.size > 0 && !names.includes("count") && !spread)
          offences.push(`${file}:${line}: ${key} has plural forms but is called without count`);
        if (forms.size === 0 && !Object.hasOwn(NOT_COUNTED_KEYS, key)) {
          for (const name of names.filter(isNumber))
            offences.push(
              `${file}:${line}: ${key} is called with the number ${name} but has no plural forms: pass it as count`,
            );
        }
      }
    }
  }
  return offences;
}
