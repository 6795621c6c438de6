import { Argon2Type, Argon2Version } from "@phi-ag/argon2";

/** Argon2id at OWASP's minimum: 19 MiB of memory, 2 passes, 1 lane. */
export const PASSWORD_HASH = {
  type: Argon2Type.Argon2id,
  version: Argon2Version.Version13,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
  hashLength: 32,
} as const;
