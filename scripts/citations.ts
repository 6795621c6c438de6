/**
 * Citations of decision records and migrations by number ("docs/decisions/0015", "decision 0016",
 * "migration 0009", "migrations/0003_chat.sql") in the code and the docs, each checked against the
 * files that exist: a renumbered or mistyped reference sends a reader to the wrong reasons. And the
 * product's rules cited as "SPEC §n" (or "SPEC §2/§6"): docs/product.md must have the section, a
 * heading "## n. ...".
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const DECISION = [/\bdecisions\/(\d{4})\b/g, /\b[Dd]ecisions? (\d{4})\b/g];
const MIGRATION = [/\bmigrations\/(\d{4})_/g, /\b[Mm]igrations? (\d{4})\b/g];
const SCANNED = /\.(ts|tsx|mjs|md|sql|toml)$/;
const PRODUCT_SECTION = /\bSPEC (§\d+(?:\/§\d+)*)/g;
const PRODUCT = join("docs", "product.md");

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name.startsWith(".")) return [];
    return statSync(path).isDirectory() ? filesUnder(path) : SCANNED.test(name) ? [path] : [];
  });
}

const numbersIn = (dir: string, pattern: RegExp) =>
  new Set(existsSync(dir) ? readdirSync(dir).flatMap((name) => pattern.exec(name)?.[1] ?? []) : []);

/** Every citation of a decision or migration number that names no file, as "path:line: what". */
export function citationOffences(root: string): string[] {
  const decisions = numbersIn(join(root, "docs", "decisions"), /^(\d{4})-.*\.md$/);
  const migrations = numbersIn(join(root, "migrations"), /^(\d{4})_.*\.sql$/);
  const productPath = join(root, PRODUCT);
  const sections = new Set(
    existsSync(productPath)
      ? [...readFileSync(productPath, "utf8").matchAll(/^## (\d+)\. \S/gm)].map((m) => m[1]!)
      : [],
  );
  const files = [
    join(root, "README.md"),
    join(root, "wrangler.toml"),
    ...["docs", "src", "test", "scripts", "bench", "migrations"].flatMap((d) => filesUnder(join(root, d))),
  ];
  const offences: string[] = [];
  for (const file of files.filter((f) => existsSync(f))) {
    readFileSync(file, "utf8")
      .split("\n")
      .forEach((line, i) => {
        const check = (patterns: RegExp[], known: Set<string>, kind: string) => {
          for (const pattern of patterns) {
            for (const match of line.matchAll(pattern)) {
              if (!known.has(match[1]!))
                offences.push(`${relative(root, file)}:${i + 1}: ${kind} ${match[1]} does not exist`);
            }
          }
        };
        check(DECISION, decisions, "decision");
        check(MIGRATION, migrations, "migration");
        for (const match of line.matchAll(PRODUCT_SECTION)) {
          for (const number of match[1]!.split("/").map((part) => part.slice(1))) {
            if (!sections.has(number))
              offences.push(
                `${relative(root, file)}:${i + 1}: SPEC §${number} has no section "## ${number}." in ${PRODUCT}`,
              );
          }
        }
      });
  }
  return offences;
}
