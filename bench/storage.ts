/**
 * What chat messages cost in storage: the bytes of the local D1 database and of every Durable
 * Object's SQLite storage under a `wrangler dev --persist-to` directory, read from the files the
 * way SQLite counts them (pages in use, WAL included), so that a difference over many messages
 * divides into bytes per message.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

export type StorageBytes = { d1: number; objects: number };

function sqliteFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".sqlite"))
    .map((name) => join(dir, name));
}

/** Bytes in use of one SQLite file (page count times page size, as SQLite sees it with its WAL). */
function bytesOf(file: string): number {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const count = db.prepare("PRAGMA page_count").get() as { page_count: number };
    const size = db.prepare("PRAGMA page_size").get() as { page_size: number };
    const free = db.prepare("PRAGMA freelist_count").get() as { freelist_count: number };
    return (count.page_count - free.freelist_count) * size.page_size;
  } finally {
    db.close();
  }
}

export function storageBytes(persistTo: string): StorageBytes {
  const sum = (files: string[]) => files.reduce((total, file) => total + bytesOf(file), 0);
  return { d1: sum(sqliteFiles(join(persistTo, "v3", "d1"))), objects: sum(sqliteFiles(join(persistTo, "v3", "do"))) };
}

/** Rows of a query summed over every Durable Object storage file that has the table (the objects of one class share a directory). */
export function objectRows<T extends Record<string, unknown>>(persistTo: string, sql: string): T[] {
  const rows: T[] = [];
  for (const file of sqliteFiles(join(persistTo, "v3", "do"))) {
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      const hasMessages = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'messages'").get();
      if (hasMessages) rows.push(...(db.prepare(sql).all() as T[]));
    } finally {
      db.close();
    }
  }
  return rows;
}
