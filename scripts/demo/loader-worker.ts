/**
 * A throwaway Worker that the seed runs under `wrangler dev` (scripts/demo/loader.ts) with the
 * project's D1, KV and R2 bindings, so bulk writes happen inside workerd. Through
 * getPlatformProxy every R2 put is a separate proxied call from Node (measured about 300 puts/s,
 * so some 40 s for the seed's 12,000 objects); put from here they run at 350-600/s.
 */
import type { D1Database, KVNamespace, R2Bucket } from "@cloudflare/workers-types";

interface Env {
  DB: D1Database;
  SETTINGS: KVNamespace;
  PHOTOS: R2Bucket;
}

type SqlValue = string | number | null;

const R2_CONCURRENCY = 16;

async function d1Batch(env: Env, statements: { sql: string; params: SqlValue[] }[]): Promise<unknown[][]> {
  const results = await env.DB.batch(statements.map((s) => env.DB.prepare(s.sql).bind(...s.params)));
  return results.map((r) => r.results);
}

/** Body: repeated [u16 key length][key][u32 size][bytes], big-endian. */
async function r2Put(env: Env, body: ArrayBuffer): Promise<number> {
  const view = new DataView(body);
  const objects: { key: string; bytes: Uint8Array }[] = [];
  const decoder = new TextDecoder();
  for (let at = 0; at < body.byteLength;) {
    const keyLength = view.getUint16(at);
    const key = decoder.decode(new Uint8Array(body, at + 2, keyLength));
    at += 2 + keyLength;
    const size = view.getUint32(at);
    objects.push({ key, bytes: new Uint8Array(body, at + 4, size) });
    at += 4 + size;
  }
  let next = 0;
  const work = async () => {
    while (next < objects.length) {
      const o = objects[next++] as { key: string; bytes: Uint8Array };
      await env.PHOTOS.put(o.key, o.bytes, { httpMetadata: { contentType: "image/jpeg" } });
    }
  };
  await Promise.all(Array.from({ length: R2_CONCURRENCY }, work));
  return objects.length;
}

async function r2Clear(env: Env): Promise<number> {
  let deleted = 0;
  for (;;) {
    const page = await env.PHOTOS.list({ limit: 1000 });
    if (page.objects.length === 0) return deleted;
    await env.PHOTOS.delete(page.objects.map((o) => o.key));
    deleted += page.objects.length;
  }
}

async function kvClear(env: Env): Promise<number> {
  let deleted = 0;
  for (;;) {
    const page = await env.SETTINGS.list();
    if (page.keys.length === 0) return deleted;
    await Promise.all(page.keys.map((k) => env.SETTINGS.delete(k.name)));
    deleted += page.keys.length;
  }
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const path = new URL(request.url).pathname;
    try {
      switch (path) {
        case "/d1/batch":
          return Response.json(await d1Batch(env, await request.json()));
        case "/kv/put": {
          const entries: { key: string; value: string }[] = await request.json();
          await Promise.all(entries.map((e) => env.SETTINGS.put(e.key, e.value)));
          return Response.json(entries.length);
        }
        case "/kv/get": {
          const keys: string[] = await request.json();
          const values = await Promise.all(keys.map((key) => env.SETTINGS.get(key)));
          return Response.json(keys.map((key, i) => ({ key, value: values[i] })));
        }
        case "/kv/keys":
          return Response.json((await env.SETTINGS.list()).keys.map((k) => k.name));
        case "/kv/clear":
          return Response.json(await kvClear(env));
        case "/r2/put":
          return Response.json(await r2Put(env, await request.arrayBuffer()));
        case "/r2/clear":
          return Response.json(await r2Clear(env));
        default:
          return new Response("not found", { status: 404 });
      }
    } catch (e) {
      return new Response(e instanceof Error ? (e.stack ?? e.message) : String(e), { status: 500 });
    }
  },
};
