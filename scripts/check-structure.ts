/**
 * The layout rules a reviewer should not have to check by eye (`npm run check:structure`):
 *
 * 1. no import cycle among the files of src/ (type imports and lazy `import()` count too: a cycle
 *    of types still means two files that cannot be understood apart);
 * 2. no SQL outside src/server/db/: no `.prepare(`, no drizzle `sql` template or query builder
 *    chain, no string holding a SELECT ... FROM, INSERT INTO, UPDATE ... SET or DELETE FROM statement;
 * 3. no base name used by two files of src/app and src/server for different things (index files,
 *    tests and the screens named after their routes are allowed, and so is one table family's
 *    handlers, service and queries: server/api/photos.ts, server/services/photos.ts, server/db/photos.ts);
 * 4. the layers (LAYERS below, in the README's words): a file imports only from its own folder and
 *    from the layers beneath its own; src/shared imports nothing outside itself, src/app nothing of
 *    the server, and of the server only render/ imports src/app;
 * 5. no re-export files: nothing is exported `from` another module, except the Durable Object
 *    classes the Worker's entry must export;
 * 6. every decision record and migration cited by number in the code and the docs exists, and every
 *    "SPEC §n" names a section that docs/product.md has (scripts/citations.ts).
 *
 * Prints every offence grouped by rule and exits 1 if there is any.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { citationOffences } from "./citations";

/** The tree to check: the project, or the folder given as the first argument (the tests plant offences in a copy). */
const ROOT = process.argv[2] ? resolve(process.argv[2]) : resolve(dirname(new URL(import.meta.url).pathname), "..");
const SRC = join(ROOT, "src");
const DB_DIR = join(SRC, "server", "db");
const SOURCE = /\.(ts|tsx)$/;

function filesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...filesUnder(path));
    else if (SOURCE.test(name)) found.push(path);
  }
  return found.toSorted();
}

const show = (path: string) => relative(ROOT, path);

/** Comments blanked out (same length, so positions stay), strings kept. */
function withoutComments(code: string): string {
  return code.replace(/\/\*[\s\S]*?\*\/|(?<![:"'`\\])\/\/[^\n]*/g, (comment) => comment.replace(/[^\n]/g, " "));
}

// ---------------------------------------------------------------------------------------------
// 1. Import cycles

const IMPORT =
  /(?:\bimport|\bexport)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

function resolveImport(from: string, specifier: string, known: Set<string>): string | null {
  if (!specifier.startsWith(".")) return null;
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")]) {
    if (known.has(candidate)) return candidate;
  }
  return null;
}

function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const code = withoutComments(readFileSync(file, "utf8"));
    const targets = new Set<string>();
    for (const match of code.matchAll(IMPORT)) {
      const target = resolveImport(file, match[1] ?? match[2]!, known);
      if (target) targets.add(target);
    }
    graph.set(file, [...targets].toSorted());
  }
  return graph;
}

/** Strongly connected components with more than one file (or a file importing itself): Tarjan's algorithm. */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) components.push(component.toSorted());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return components;
}

/** One concrete loop through a component, to show how the files import each other. */
function loopIn(component: string[], graph: Map<string, string[]>): string[] {
  const members = new Set(component);
  const start = component[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const node = queue.shift()!;
    for (const next of graph.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let at = node; at !== start; at = previous.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return component;
}

// ---------------------------------------------------------------------------------------------
// 2. SQL outside src/server/db/

/** drizzle's query builder: db.select(...).from(, db.insert(table).values(, db.update(table).set(, db.delete(table).where(, db.query.x.findMany( */
const QUERY_BUILDER =
  /\.select(?:Distinct)?\([^()]*(?:\([^()]*\)[^()]*)*\)\s*\.from\(|\.insert\(\s*\w+\s*\)\s*\.values\(|\.update\(\s*\w+\s*\)\s*\.set\(|\.delete\(\s*\w+\s*\)\s*\.where\(|\.query\.\w+\.find(?:First|Many)\(/g;
const STATEMENT =
  /\bSELECT\b[\s\S]*?\bFROM\b|\bINSERT\s+(?:OR\s+\w+\s+)?INTO\b|\bUPDATE\s+\w+\s+SET\b|\bDELETE\s+FROM\b/;
const STRING = /`(?:\\[\s\S]|\$\{[^}]*\}|[^`\\])*`|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g;

function lineOf(code: string, offset: number): number {
  return code.slice(0, offset).split("\n").length;
}

function sqlOffences(file: string): string[] {
  const code = withoutComments(readFileSync(file, "utf8"));
  const found: string[] = [];
  for (const match of code.matchAll(/\.prepare\(/g))
    found.push(`${show(file)}:${lineOf(code, match.index)}: .prepare(`);
  for (const match of code.matchAll(/\bsql(?:\.raw)?\s*`/g))
    found.push(`${show(file)}:${lineOf(code, match.index)}: sql\`...\` template`);
  for (const match of code.matchAll(QUERY_BUILDER))
    found.push(
      `${show(file)}:${lineOf(code, match.index)}: drizzle query "${match[0].replace(/\s+/g, "").slice(0, 24)}..."`,
    );
  for (const match of code.matchAll(STRING)) {
    const statement = STATEMENT.exec(match[0]);
    if (!statement) continue;
    const before = code.slice(Math.max(0, match.index - 4), match.index);
    if (/\bsql\s*$/.test(before)) continue; // already reported as a template
    found.push(
      `${show(file)}:${lineOf(code, match.index)}: SQL text "${statement[0].split(/\s+/).slice(0, 2).join(" ")} ..."`,
    );
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// 3. Base names used twice across src/app and src/server

function nameOffences(files: string[]): string[] {
  const byName = new Map<string, string[]>();
  for (const file of files) {
    const path = show(file);
    if (!/^src\/(app|server)\//.test(path)) continue;
    if (/\.test\.tsx?$/.test(path) || path.endsWith(".d.ts")) continue;
    if (path.startsWith("src/app/screens/")) continue; // screens are named after their routes
    const name = basename(path).replace(SOURCE, "");
    if (name === "index") continue;
    byName.set(name, [...(byName.get(name) ?? []), path]);
  }
  // One table family across the server's layers is one thing, named once per layer.
  const layered = (paths: string[]) =>
    paths.every((path) => /^src\/server\/(api|services|db)\//.test(path)) &&
    new Set(paths.map((path) => path.split("/")[2])).size === paths.length;
  return [...byName]
    .filter(([, paths]) => paths.length > 1 && !layered(paths))
    .map(([name, paths]) => `${name}: ${paths.join(", ")}`)
    .toSorted();
}

// ---------------------------------------------------------------------------------------------
// 4. Layers

/**
 * The server's layers, top first: a file may import from its own folder and from any layer below
 * its own, never from a layer above it or from another folder of its own layer. The entry wires
 * everything; render/ and console/ make whole pages; api/ answers the calls; chat/ is the
 * conversation's object; services/ hold the business rules; notices/ tell members of what
 * happened; edge/ resolves what every request is for (site, country, locale, session); mail/,
 * sms/, push/, payments/ talk to the providers; auth/ holds passwords, tokens and cookies; the
 * files at the root of src/server are what every layer shares (errors, texts, the request's
 * context); db/ holds every query. src/shared is beneath them all.
 */
const LAYERS: readonly (readonly string[])[] = [
  ["src/worker.ts"],
  ["src/server/app.ts"],
  ["src/server/render", "src/server/console"],
  ["src/server/api"],
  ["src/server/chat"],
  ["src/server/services"],
  ["src/server/notices"],
  ["src/server/edge"],
  ["src/server/mail", "src/server/sms", "src/server/push", "src/server/payments"],
  ["src/server/auth"],
  ["src/server/*.ts"],
  ["src/server/db"],
  ["src/shared"],
];

/** The layer's folder (or file) a path of src/ belongs to, and its rank (0 = top; the first match in LAYERS wins, so app.ts is not a root file). */
function layerOf(path: string): { unit: string; rank: number } | null {
  for (const [rank, units] of LAYERS.entries()) {
    for (const unit of units) {
      if (unit.endsWith("/*.ts") ? dirname(path) === unit.slice(0, -5) : path === unit || path.startsWith(unit + "/"))
        return { unit, rank };
    }
  }
  return null;
}

/** Why an import from one file of src/ to another runs against the layers, or null when it does not. */
function layerOffence(from: string, to: string): string | null {
  const fromApp = from.startsWith("src/app/") || from.startsWith("src/client/") || from === "src/sw.ts";
  const toApp = to.startsWith("src/app/");
  if (to.startsWith("src/client/") || to === "src/sw.ts") return "nothing imports the browser's entries";
  if (fromApp)
    return to.startsWith("src/server/") || to === "src/worker.ts" ? "the app never imports the server" : null;
  if (from.startsWith("src/shared/")) return to.startsWith("src/shared/") ? null : "src/shared imports only src/shared";
  if (toApp) return from.startsWith("src/server/render/") ? null : "of the server, only render/ imports src/app";
  const a = layerOf(from);
  const b = layerOf(to);
  if (!a || !b) return "a file outside the layers";
  if (a.unit === b.unit) return null;
  if (b.rank > a.rank) return null;
  return b.rank === a.rank ? `${b.unit} is beside ${a.unit}, not beneath it` : `${b.unit} is above ${a.unit}`;
}

function layerOffences(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    for (const target of targets) {
      const why = layerOffence(show(file), show(target));
      if (why) found.push(`${show(file)} imports ${show(target)}: ${why}`);
    }
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// 5. Re-exports

const RE_EXPORT = /\bexport\s+(?:type\s+)?(?:\*|\{[^}]*\})\s*from\s*["'][^"']+["']/g;
/** The entry must export the Durable Object classes by name: those re-exports are the runtime's. */
const RE_EXPORTS_ALLOWED = new Set(["src/worker.ts"]);

function reExportOffences(file: string): string[] {
  if (RE_EXPORTS_ALLOWED.has(show(file))) return [];
  const code = withoutComments(readFileSync(file, "utf8"));
  return [...code.matchAll(RE_EXPORT)].map(
    (match) => `${show(file)}:${lineOf(code, match.index)}: ${match[0].replace(/\s+/g, " ")}`,
  );
}

// ---------------------------------------------------------------------------------------------

const files = filesUnder(SRC);
const graph = importGraph(files);
const loops = cycles(graph).map((component) => {
  const loop = loopIn(component, graph).map(show).join(" -> ");
  return component.length > loop.split(" -> ").length - 1
    ? `${loop} (and ${component.length - (loop.split(" -> ").length - 1)} more files in the same knot)`
    : loop;
});
const sql = files.filter((file) => !file.startsWith(DB_DIR + "/")).flatMap(sqlOffences);
const names = nameOffences(files);

const report: [string, string[]][] = [
  ["Import cycles among src/ files", loops],
  ["SQL outside src/server/db/", sql],
  ["Base names used by more than one file in src/app and src/server", names],
  ["Imports that run against the layers", layerOffences(graph)],
  ["Re-exports", files.flatMap(reExportOffences)],
  ["Decision records, migrations and product sections cited but missing", citationOffences(ROOT)],
];
let failed = false;
for (const [title, offences] of report) {
  console.info(`${offences.length ? "✗" : "✓"} ${title}: ${offences.length}`);
  for (const offence of offences) console.info(`    ${offence}`);
  failed ||= offences.length > 0;
}
process.exit(failed ? 1 : 0);
