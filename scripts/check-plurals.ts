/**
 * `npm run check` (and `npm run check:plurals` alone): the plural forms of every locale file and
 * every call of a text with a number (scripts/plural-rules.ts). Prints each offence and exits 1 if
 * there is any.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { LANGUAGES, VARIANTS } from "../src/shared/locales";
import { codeOffences, localeOffences, type Tree } from "./plural-rules";

/** The tree to check: the project, or the folder given as the first argument (the tests plant offences in a copy). */
const ROOT = process.argv[2] ? resolve(process.argv[2]) : resolve(dirname(new URL(import.meta.url).pathname), "..");
const read = (tag: string) => JSON.parse(readFileSync(join(ROOT, "locales", `${tag}.json`), "utf8")) as Tree;

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourcesUnder(path);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

const languages = Object.fromEntries(LANGUAGES.map((language) => [language, read(language)]));
const variants = Object.fromEntries(VARIANTS.map((variant) => [variant, read(variant)]));
const sources = Object.fromEntries(
  sourcesUnder(join(ROOT, "src")).map((file) => [relative(ROOT, file), readFileSync(file, "utf8")]),
);

const offences = [...localeOffences(languages, variants), ...codeOffences(languages.en!, sources)];
if (offences.length > 0) {
  console.error(`Plural forms (decision 0039): ${offences.length} offence(s)`);
  for (const offence of offences) console.error(`  ${offence}`);
  process.exit(1);
}
console.info(
  `Plural forms: ${LANGUAGES.length} languages, ${VARIANTS.length} variants and ${Object.keys(sources).length} source files checked.`,
);
