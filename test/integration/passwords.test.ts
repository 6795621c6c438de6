import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "../../src/server/auth/passwords";

describe("password hashing", () => {
  it("stores Argon2id at OWASP's minimum with a fresh salt each time", async () => {
    const a = await hashPassword("correct horse battery staple");
    const b = await hashPassword("correct horse battery staple");
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain("correct horse");
  });

  it("accepts the right password and refuses any other", async () => {
    const stored = await hashPassword("Zoë's secret 42");
    expect(await verifyPassword(stored, "Zoë's secret 42")).toEqual({ ok: true, rehash: false });
    expect(await verifyPassword(stored, "Zoe's secret 42")).toEqual({ ok: false, rehash: false });
    expect(await verifyPassword(stored, "")).toEqual({ ok: false, rehash: false });
  });

  it("asks to rehash a password stored with older parameters", async () => {
    const { default: Argon2 } = await import("@phi-ag/argon2");
    const { default: wasm } = await import("@phi-ag/argon2/argon2.wasm");
    const old = new Argon2(await WebAssembly.instantiate(wasm)).hash("old one", {
      memoryCost: 4096,
      timeCost: 3,
      parallelism: 1,
      type: 2,
    }).encoded;
    expect(await verifyPassword(old, "old one")).toEqual({ ok: true, rehash: true });
  });

  it("refuses when there is no hash, after spending the same work", async () => {
    expect(await verifyPassword(null, "anything")).toEqual({ ok: false, rehash: false });
    expect(await verifyPassword("plain-text-from-elsewhere", "plain-text-from-elsewhere")).toEqual({
      ok: false,
      rehash: false,
    });
  });
});
