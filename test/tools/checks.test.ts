/**
 * The project's own checks, as CI runs them: each test plants one offence in a copy of the tree and
 * expects the check to fail on it, naming it; the copy without it passes.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const TSX = join(ROOT, "node_modules", ".bin", "tsx");
const OXFMT = join(ROOT, "node_modules", ".bin", "oxfmt");

const copies: string[] = [];

/** A copy of what the structure check reads: the sources, the docs it resolves citations in, the migrations. */
function copyOfTree(): string {
  const dir = mkdtempSync(join(tmpdir(), "structure-"));
  copies.push(dir);
  for (const part of ["src", "docs", "migrations", "README.md"])
    cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  return dir;
}

function structureCheck(dir: string): { status: number | null; output: string } {
  const run = spawnSync(TSX, [join(ROOT, "scripts", "check-structure.ts"), dir], { encoding: "utf8" });
  return { status: run.status, output: run.stdout + run.stderr };
}

afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

describe("the structure check (npm run check:structure)", () => {
  let clean: ReturnType<typeof structureCheck>;
  beforeAll(() => {
    clean = structureCheck(copyOfTree());
  });

  it("passes on the tree as it is", () => {
    expect(clean.output).not.toContain("✗");
    expect(clean.status).toBe(0);
  });

  it("fails on an import from a layer above: the queries importing what tells members", () => {
    const dir = copyOfTree();
    writeFileSync(
      join(dir, "src/server/db/planted.ts"),
      'import { tellMember } from "../notices/tell";\n\nexport const planted = tellMember;\n',
    );
    const { status, output } = structureCheck(dir);
    expect(status).toBe(1);
    expect(output).toContain("✗ Imports that run against the layers: 1");
    expect(output).toContain(
      "src/server/db/planted.ts imports src/server/notices/tell.ts: src/server/notices is above src/server/db",
    );
  });

  it("fails on an import from a folder beside one's own: a provider importing another", () => {
    const dir = copyOfTree();
    writeFileSync(
      join(dir, "src/server/sms/planted.ts"),
      'import { mailerFor } from "../mail/mailer";\n\nexport const planted = mailerFor;\n',
    );
    const { status, output } = structureCheck(dir);
    expect(status).toBe(1);
    expect(output).toContain("src/server/sms/planted.ts imports src/server/mail/mailer.ts: src/server/mail is beside");
  });

  it("fails on SQL outside src/server/db/", () => {
    const dir = copyOfTree();
    writeFileSync(
      join(dir, "src/server/services/planted.ts"),
      'export const everyone = "SELECT id, email FROM accounts WHERE status = ?";\n',
    );
    const { status, output } = structureCheck(dir);
    expect(status).toBe(1);
    expect(output).toContain("✗ SQL outside src/server/db/: 1");
    expect(output).toContain('src/server/services/planted.ts:1: SQL text "SELECT id, ..."');
  });

  it("fails on a re-export file", () => {
    const dir = copyOfTree();
    writeFileSync(join(dir, "src/server/edge/planted.ts"), 'export { loadSite } from "./site";\n');
    const { status, output } = structureCheck(dir);
    expect(status).toBe(1);
    expect(output).toContain('src/server/edge/planted.ts:1: export { loadSite } from "./site"');
  });

  it("fails on a product rule cited by a section docs/product.md lacks", () => {
    const dir = copyOfTree();
    // Written in pieces, so that this file itself cites no missing section.
    const spec = (n: number) => `SPEC ${"§"}${n}`;
    writeFileSync(
      join(dir, "src/server/services/planted.ts"),
      `/** The rule of ${spec(12)}. */\nexport const planted = 1;\n`,
    );
    const product = join(dir, "docs/product.md");
    // The section the code cites most after §2: every citation of it fails once its heading is gone.
    writeFileSync(product, readFileSync(product, "utf8").replace(/^## 4\. /m, "## Four. "));
    const { status, output } = structureCheck(dir);
    expect(status).toBe(1);
    expect(output).toContain(
      `src/server/services/planted.ts:1: ${spec(12)} has no section "## 12." in docs/product.md`,
    );
    expect(output).toMatch(
      new RegExp(`src/server/\\S+:\\d+: ${spec(4)} has no section "## 4\\." in docs/product\\.md`),
    );
    expect(output).not.toContain(`${spec(2)} has no section`);
  });
});

describe("the plural check (npm run check:plurals), which reads every text of every locale", () => {
  const pluralCheck = (dir: string) => {
    const run = spawnSync(TSX, [join(ROOT, "scripts", "check-plurals.ts"), dir], { encoding: "utf8" });
    return { status: run.status, output: run.stdout + run.stderr };
  };
  const copyOfTexts = () => {
    const dir = mkdtempSync(join(tmpdir(), "plurals-"));
    copies.push(dir);
    for (const part of ["src", "locales"]) cpSync(join(ROOT, part), join(dir, part), { recursive: true });
    return dir;
  };

  it("passes on the texts as they are", () => {
    expect(pluralCheck(copyOfTexts()).status).toBe(0);
  });

  it("fails on a placeholder in double braces, in a language or a regional variant", () => {
    const dir = copyOfTexts();
    for (const [file, key] of [
      ["locales/sv.json", "Du är offline"],
      ["locales/de-CH.json", null],
    ] as const) {
      const path = join(dir, file);
      const texts = JSON.parse(readFileSync(path, "utf8")) as Record<string, Record<string, unknown>>;
      if (key) (texts.app_install!.offline as Record<string, string>).title = `${key} ({{site}})`;
      else texts.planted = { text: "Willkommen bei {{site}}" };
      writeFileSync(path, JSON.stringify(texts));
    }
    const { status, output } = pluralCheck(dir);
    expect(status).toBe(1);
    expect(output).toContain("sv: app_install.offline.title has a placeholder in double braces");
    expect(output).toContain("de-CH: planted.text has a placeholder in double braces");
  });
});

describe("the format check (npm run format:check, part of npm run check, which CI runs before the tests)", () => {
  it("CI runs npm run check, whose first step is the format check, before the tests", () => {
    const ci = readFileSync(join(ROOT, ".ci/run"), "utf8");
    expect(ci.indexOf("\nnpm run check\n")).toBeGreaterThan(0);
    expect(ci.indexOf("\nnpm run check\n")).toBeLessThan(ci.indexOf("\nnpm test\n"));
    const scripts = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts as Record<string, string>;
    expect(scripts.check).toMatch(/^npm run -s format:check && /);
    expect(scripts["format:check"]).toMatch(/^oxfmt --check src test scripts bench /);
  });

  it("fails on a file formatted by hand, and passes once the formatter wrote it", () => {
    const dir = mkdtempSync(join(tmpdir(), "format-"));
    copies.push(dir);
    cpSync(join(ROOT, ".oxfmtrc.json"), join(dir, ".oxfmtrc.json"));
    cpSync(join(ROOT, "src/server/notices/object-names.ts"), join(dir, "object-names.ts"));
    const check = () => spawnSync(OXFMT, ["--check", "object-names.ts"], { cwd: dir, encoding: "utf8" });
    expect(check().status).toBe(0);
    const file = join(dir, "object-names.ts");
    writeFileSync(file, readFileSync(file, "utf8").replace("(profileId: number) =>", "( profileId:number )=>"));
    const failed = check();
    expect(failed.status).toBe(1);
    expect(failed.stdout + failed.stderr).toContain("object-names.ts");
    expect(spawnSync(OXFMT, ["object-names.ts"], { cwd: dir }).status).toBe(0);
    expect(check().status).toBe(0);
  });
});
