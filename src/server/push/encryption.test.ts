import { describe, expect, it } from "vitest";
import { decodeBase64Url, encodeBase64Url } from "../../shared/web-push";
import { encryptForSubscription, MAX_PUSH_PLAINTEXT } from "./encryption";

const bytes = (text: string) => Uint8Array.from(decodeBase64Url(text)!);

/** RFC 8291 Appendix A: the example's keys, salt and the exact message it gives. */
const EXAMPLE = {
  plaintext: "When I grow up, I want to be a watermelon",
  asPublic: "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8",
  asPrivate: "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw",
  uaPublic: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
  salt: "DGv6ra1nlYgDCS1FRnbzlw",
  auth: "BTBZMqHH6r4Tts7J_aSIgg",
  message:
    "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN",
};

describe("aes128gcm push encryption (RFC 8291)", () => {
  it("gives RFC 8291's example message byte for byte from its keys and salt", async () => {
    const point = bytes(EXAMPLE.asPublic);
    const jwk = { kty: "EC", crv: "P-256", x: encodeBase64Url(point.slice(1, 33)), y: encodeBase64Url(point.slice(33)) };
    const keyPair = {
      publicKey: await crypto.subtle.importKey("jwk", jwk, { name: "ECDH", namedCurve: "P-256" }, true, []),
      privateKey: await crypto.subtle.importKey("jwk", { ...jwk, d: EXAMPLE.asPrivate }, { name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]),
    } as CryptoKeyPair;
    const body = await encryptForSubscription({ p256dh: EXAMPLE.uaPublic, auth: EXAMPLE.auth }, new TextEncoder().encode(EXAMPLE.plaintext), { keyPair, salt: bytes(EXAMPLE.salt), padTo: 1 });
    expect(encodeBase64Url(body)).toBe(EXAMPLE.message);
  });

  it("pads to a multiple of 256 bytes and refuses what one record cannot carry", async () => {
    const keys = { p256dh: EXAMPLE.uaPublic, auth: EXAMPLE.auth };
    // Header 86 bytes, record = padded text + 16-byte tag.
    expect((await encryptForSubscription(keys, new Uint8Array(10))).length).toBe(86 + 256 + 16);
    expect((await encryptForSubscription(keys, new Uint8Array(300))).length).toBe(86 + 512 + 16);
    expect((await encryptForSubscription(keys, new Uint8Array(MAX_PUSH_PLAINTEXT))).length).toBe(4096);
    await expect(encryptForSubscription(keys, new Uint8Array(MAX_PUSH_PLAINTEXT + 1))).rejects.toThrow(/exceeds/);
  });
});
