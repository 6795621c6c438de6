/**
 * The push address filter (issue 20, point 5): names as a resolver takes them (trailing dot, case,
 * IDN) and addresses of every family that are not public, in this runtime's own URL parser.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { isAllowedPushEndpoint, pushServiceAddress } from "../../src/server/push/endpoints";
import { encodeBase64Url } from "../../src/shared/web-push";
import { chatMember } from "../chat";
import { putSites, site } from "../fixtures";
import { json } from "../http";

const ORIGIN = "http://push-endpoints.test";

beforeAll(async () => {
  await putSites(site("push-endpoints.test"));
});

/** Every form the review had stored, and more of each kind. */
const REFUSED = [
  // names of this machine and of local networks, with a trailing dot, in any case, in other scripts
  "https://localhost./push",
  "https://LOCALHOST/push",
  "https://LocalHost./push",
  "https://ｌｏｃａｌｈｏｓｔ/push",
  "https://localhost。/push",
  "https://push.localhost./push",
  "https://metadata.google.internal./computeMetadata/v1/",
  "https://metadata.google.internal/computeMetadata/v1/",
  "https://METADATA.GOOGLE.INTERNAL./x",
  "https://metadata/x",
  "https://metadata./x",
  "https://router.local./push",
  "https://Router.LOCAL/push",
  "https://printer.ｌｏｃａｌ/push",
  "https://nas.home.arpa./push",
  "https://1.0.0.127.in-addr.arpa/push",
  "https://intranet/push",
  "https://intranet./push",
  "https://push.test/push",
  "https://push.example./push",
  "https://host.lan/push",
  "https://localhost../push",
  "https://a..b.example.com/push",
  // IPv4 in every spelling the URL parser reads, and every block that is not public
  "https://127.0.0.1/push",
  "https://127.0.0.1./push",
  "https://127.1/push",
  "https://2130706433/push",
  "https://0x7f000001/push",
  "https://0177.0.0.1/push",
  "https://%31%32%37.0.0.1/push",
  "https://0/push",
  "https://0.0.0.0/push",
  "https://10.1.2.3/push",
  "https://100.64.0.1/push",
  "https://100.127.255.254/push",
  "https://169.254.169.254/latest/meta-data/",
  "https://172.16.0.1/push",
  "https://172.31.255.255/push",
  "https://192.0.0.8/push",
  "https://192.0.2.10/push",
  "https://192.88.99.1/push",
  "https://192.168.1.1/push",
  "https://198.18.0.1/push",
  "https://198.19.255.1/push",
  "https://198.51.100.7/push",
  "https://203.0.113.9/push",
  "https://224.0.0.1/push",
  "https://239.255.255.250/push",
  "https://240.0.0.1/push",
  "https://255.255.255.255/push",
  // IPv6: loopback, unspecified, and IPv4 carried in IPv6
  "https://[::1]/push",
  "https://[0:0:0:0:0:0:0:1]/push",
  "https://[::]/push",
  "https://[::a9fe:a9fe]/push",
  "https://[::7f00:1]/push",
  "https://[::127.0.0.1]/push",
  "https://[::8.8.8.8]/push",
  "https://[::ffff:127.0.0.1]/push",
  "https://[::ffff:a9fe:a9fe]/push",
  "https://[::ffff:10.0.0.1]/push",
  "https://[::ffff:0:a9fe:a9fe]/push",
  "https://[64:ff9b::a9fe:a9fe]/push",
  "https://[64:ff9b::127.0.0.1]/push",
  "https://[64:ff9b::8.8.8.8]/push",
  "https://[64:ff9b:1::a9fe:a9fe]/push",
  "https://[2002:a9fe:a9fe::1]/push",
  "https://[2002:7f00:1::]/push",
  "https://[2002:c0a8:101::1]/push",
  "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/push",
  "https://[2001::1]/push",
  // IPv6: local, site-local, unique-local, documentation, multicast, discard, benchmarking, ORCHID
  "https://[fe80::1]/push",
  "https://[FE80::1]/push",
  "https://[febf::1]/push",
  "https://[fec0::1]/push",
  "https://[feff::1]/push",
  "https://[fc00::1]/push",
  "https://[fd00::1]/push",
  "https://[fd12:3456:789a::1]/push",
  "https://[2001:db8::1]/push",
  "https://[3fff::1]/push",
  "https://[3fff:fff::1]/push",
  "https://[ff02::1]/push",
  "https://[ff05::1:3]/push",
  "https://[100::1]/push",
  "https://[2001:2::1]/push",
  "https://[2001:10::1]/push",
  "https://[2001:20::1]/push",
  // not https, or with credentials
  "http://fcm.googleapis.com/fcm/send/abc",
  "https://user:pw@fcm.googleapis.com/fcm/send/abc",
];

const ALLOWED = [
  "https://fcm.googleapis.com/fcm/send/abc",
  "https://FCM.googleapis.com./fcm/send/abc",
  "https://updates.push.services.mozilla.com/wpush/v2/abc",
  "https://web.push.apple.com/QGuQ",
  "https://wns2-par02p.notify.windows.com/w/?token=abc",
  "https://push.example.net/send/1",
  "https://пример.рф/push",
  "https://8.8.8.8/push",
  "https://[2606:4700:4700::1111]/push",
  "https://[2002:808:808::1]/push",
  "https://[3fff:1000::1]/push",
  "https://[2001:200::1]/push",
];

describe("which push addresses the Worker posts to", () => {
  it("refuses every local, private, reserved and embedded-private form, as named or spelt", () => {
    for (const endpoint of REFUSED) expect(isAllowedPushEndpoint(endpoint, false), endpoint).toBe(false);
  });

  it("takes public push services and public addresses of both families", () => {
    for (const endpoint of ALLOWED) expect(isAllowedPushEndpoint(endpoint, false), endpoint).toBe(true);
  });

  it("in development takes this machine's loopback (the stand-in), however spelt, and nothing else private", () => {
    for (const endpoint of [
      "https://127.0.0.1:9000/push",
      "https://localhost./push",
      "https://[::1]:9000/push",
      "https://127.1/push",
    ]) {
      expect(isAllowedPushEndpoint(endpoint, true), endpoint).toBe(true);
    }
    expect(pushServiceAddress("https://localhost.:9000/push", true)).toBe("http://localhost.:9000/push");
    for (const endpoint of [
      "https://169.254.169.254/x",
      "https://[::7f00:1]/x",
      "https://[::ffff:7f00:1]/x",
      "https://metadata.google.internal./x",
      "https://router.local./x",
      "https://[fec0::1]/x",
    ]) {
      expect(isAllowedPushEndpoint(endpoint, true), endpoint).toBe(false);
    }
  });
});

describe("POST /api/user.php?push=1 with the review's addresses", () => {
  it("answers 400 with the member's text for each, storing nothing", async () => {
    const member = await chatMember(ORIGIN);
    const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
      "deriveBits",
    ])) as CryptoKeyPair;
    const keys = {
      p256dh: encodeBase64Url(new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer)),
      auth: encodeBase64Url(crypto.getRandomValues(new Uint8Array(16))),
    };
    for (const endpoint of [
      "https://metadata.google.internal./computeMetadata/v1/",
      "https://router.local./push",
      "https://[::a9fe:a9fe]/push",
      "https://[::7f00:1]/push",
      "https://[64:ff9b::a9fe:a9fe]/push",
      "https://[fec0::1]/push",
    ]) {
      const res = await member.browser.post("/api/user.php?push=1", {
        subscription: { endpoint, expirationTime: null, keys },
      });
      expect(res.status, endpoint).toBe(400);
      expect(await json(res), endpoint).toMatchObject({
        error: "invalid_parameter",
        field: "subscription.endpoint",
        message: "This browser's push address cannot be used. Turn notifications off and on again.",
      });
    }
    const stored = await env.DB.prepare("SELECT COUNT(*) AS n FROM push_subscriptions WHERE user_id = ?")
      .bind(member.userId)
      .first<{ n: number }>();
    expect(stored!.n).toBe(0);
  });
});
