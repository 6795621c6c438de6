/** The cost of one password hash (Argon2id, the stored parameters) next to PBKDF2 at Cloudflare's 100,000-iteration cap. */
import initialize from "@phi-ag/argon2/node";
import { webcrypto } from "node:crypto";
import { PASSWORD_HASH } from "../src/server/auth/password-params";

async function timeEach(runs: number, work: () => Promise<unknown> | unknown): Promise<number> {
  await work();
  const started = performance.now();
  for (let i = 0; i < runs; i++) await work();
  return (performance.now() - started) / runs;
}

export async function passwordCost(runs = 10): Promise<{ argon2: number; pbkdf2: number }> {
  const argon2 = await initialize();
  const argonMs = await timeEach(runs, () =>
    argon2.hash("correct horse battery staple", {
      ...PASSWORD_HASH,
      salt: webcrypto.getRandomValues(new Uint8Array(16)),
    }),
  );
  const key = await webcrypto.subtle.importKey(
    "raw",
    new TextEncoder().encode("correct horse battery staple"),
    "PBKDF2",
    false,
    ["deriveBits"],
  );
  const pbkdf2Ms = await timeEach(runs, () =>
    webcrypto.subtle.deriveBits(
      { name: "PBKDF2", hash: "SHA-256", salt: webcrypto.getRandomValues(new Uint8Array(16)), iterations: 100_000 },
      key,
      256,
    ),
  );
  return { argon2: argonMs, pbkdf2: pbkdf2Ms };
}
