/**
 * Runs loader-worker.ts under wrangler's own dev server with the D1, KV and R2 bindings copied
 * from wrangler.toml, persisting to the same place `wrangler dev --persist-to <dir>` uses
 * (<dir>/v3/...). A generated config is needed because the project's own one points at the app.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { unstable_dev, unstable_readConfig } from "wrangler";
import type { Statement } from "./sql";

export interface StoredObject {
  key: string;
  bytes: Uint8Array;
}

export interface Loader {
  d1(statements: readonly Statement[]): Promise<Record<string, unknown>[][]>;
  kvPut(entries: readonly { key: string; value: string }[]): Promise<number>;
  /** The values of KV keys (null where a key has none). */
  kvGet(keys: readonly string[]): Promise<{ key: string; value: string | null }[]>;
  /** The first page (up to 1000) of KV key names. */
  kvKeys(): Promise<string[]>;
  kvClear(): Promise<number>;
  r2Put(objects: readonly StoredObject[]): Promise<number>;
  r2Clear(): Promise<number>;
  stop(): Promise<void>;
}

const WORKER = fileURLToPath(new URL("./loader-worker.ts", import.meta.url));

export function packObjects(objects: readonly StoredObject[]): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  const keys = objects.map((o) => encoder.encode(o.key));
  let size = 0;
  objects.forEach((o, i) => (size += 6 + (keys[i] as Uint8Array).length + o.bytes.length));
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  let at = 0;
  objects.forEach((o, i) => {
    const key = keys[i] as Uint8Array;
    view.setUint16(at, key.length);
    out.set(key, at + 2);
    at += 2 + key.length;
    view.setUint32(at, o.bytes.length);
    out.set(o.bytes, at + 4);
    at += 4 + o.bytes.length;
  });
  return out;
}

export async function startLoader(persistTo: string, configPath = "wrangler.toml"): Promise<Loader> {
  const app = unstable_readConfig({ config: configPath }, { hideWarnings: true });
  const dir = mkdtempSync(join(tmpdir(), "seed-loader-"));
  const config = join(dir, "wrangler.json");
  writeFileSync(
    config,
    JSON.stringify({
      name: "seed-loader",
      main: WORKER,
      compatibility_date: app.compatibility_date,
      d1_databases: app.d1_databases,
      kv_namespaces: app.kv_namespaces,
      r2_buckets: app.r2_buckets,
    }),
  );
  const worker = await unstable_dev(WORKER, {
    config,
    persistTo: resolve(persistTo),
    ip: "127.0.0.1",
    port: 0,
    inspect: false,
    logLevel: "warn",
    experimental: { disableExperimentalWarning: true },
  });

  const call = async <T>(path: string, body: string | Uint8Array<ArrayBuffer>): Promise<T> => {
    const res = await fetch(`http://127.0.0.1:${worker.port}${path}`, { method: "POST", body });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const json = (v: unknown) => JSON.stringify(v);

  return {
    d1: (statements) => call("/d1/batch", json(statements)),
    kvPut: (entries) => call("/kv/put", json(entries)),
    kvGet: (keys) => call("/kv/get", json(keys)),
    kvKeys: () => call("/kv/keys", ""),
    kvClear: () => call("/kv/clear", ""),
    r2Put: (objects) => call("/r2/put", packObjects(objects)),
    r2Clear: () => call("/r2/clear", ""),
    stop: async () => {
      await worker.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
