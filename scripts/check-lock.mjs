// CI: after `npm install`, the lock file must describe the tree it described before the install.
// Entries that only differ in being present for other machines' optional binaries (another os, cpu
// or libc: an oxlint or workerd build for macOS, Windows, musl) are not a change of the tree: npm
// writes them into the lock or leaves them out depending on what the registry it reaches lists.
// Everything else (a version, an integrity, a new or missing package for this machine) fails.
// Plain JavaScript: it runs on the machine's own Node, before the project's runtime is installed.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import process from "node:process";

const committed = JSON.parse(
  execFileSync("git", ["show", "HEAD:package-lock.json"], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }),
).packages;
const installed = JSON.parse(readFileSync("package-lock.json", "utf8")).packages;

const libc = process.report?.getReport().header.glibcVersionRuntime ? "glibc" : "musl";
/** An optional package npm never installs here. */
const forOtherMachines = (entry) =>
  entry.optional === true &&
  ((entry.os && !entry.os.includes(process.platform)) ||
    (entry.cpu && !entry.cpu.includes(process.arch)) ||
    (entry.libc && !entry.libc.includes(libc)));

const problems = [];
for (const key of new Set([...Object.keys(committed), ...Object.keys(installed)])) {
  const before = committed[key];
  const after = installed[key];
  if (before && after) {
    if (JSON.stringify(before) !== JSON.stringify(after)) problems.push(`changed: ${key || "(root)"}`);
  } else if (!forOtherMachines(before ?? after)) {
    problems.push(`${before ? "missing after the install" : "added by the install"}: ${key}`);
  }
}
if (problems.length) {
  console.error(`package-lock.json does not describe the installed tree:\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
console.info("package-lock.json: the installed tree is the committed one");
