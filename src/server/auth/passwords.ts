/**
 * Password storage: Argon2id at OWASP's minimum (m = 19 MiB, t = 2, p = 1), compiled to WebAssembly so
 * it runs inside Workers' limits (production caps PBKDF2 below OWASP's figure). Hashes are PHC strings
 * ("$argon2id$v=19$m=19456,t=2,p=1$salt$hash"), so the parameters travel with each hash and a hash made
 * with older parameters is recognised and replaced at the next login.
 */
import Argon2, { Argon2Type } from "@phi-ag/argon2";
import wasm from "@phi-ag/argon2/argon2.wasm";
import { PASSWORD_HASH } from "./password-params";

const CURRENT_PARAMS = `$argon2id$v=19$m=${PASSWORD_HASH.memoryCost},t=${PASSWORD_HASH.timeCost},p=${PASSWORD_HASH.parallelism}$`;

let argon2: Argon2 | undefined;
async function engine(): Promise<Argon2> {
  argon2 ??= new Argon2(await WebAssembly.instantiate(wasm));
  return argon2;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return (await engine()).hash(password, { ...PASSWORD_HASH, salt }).encoded;
}

/** A hash of nothing in particular, checked when no account matches, so a miss costs as much time as a hit. */
let decoy: Promise<string> | undefined;

/**
 * Check a password against a stored hash (or against a decoy when there is none). `rehash` says the
 * hash was made with other parameters and should be replaced now that the password is known.
 */
export async function verifyPassword(
  stored: string | null,
  password: string,
): Promise<{ ok: boolean; rehash: boolean }> {
  const argon = await engine();
  if (!stored || !stored.startsWith("$argon2")) {
    decoy ??= hashPassword("decoy password");
    argon.tryVerify(await decoy, password, Argon2Type.Argon2id);
    return { ok: false, rehash: false };
  }
  const ok = argon.tryVerify(stored, password).success;
  return { ok, rehash: ok && !stored.startsWith(CURRENT_PARAMS) };
}
