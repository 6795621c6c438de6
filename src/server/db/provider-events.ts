/**
 * The events a provider's signed webhook delivered, by the provider's event id (Mollie's next-gen
 * webhooks, docs/decisions/0054): a delivery is recorded before it is acted on and marked handled
 * once it took effect, so a repeat of a handled event is answered without acting again.
 */
import { and, eq, isNotNull, lt, sql } from "drizzle-orm";
import type { Database } from "./database";
import { providerEvents } from "./schema";

/** Record a delivered event; true when the same event was already handled (a repeated delivery). */
export async function recordProviderEvent(
  db: Database,
  event: { provider: string; eventId: string; type: string; entityId: string; now: number },
): Promise<boolean> {
  const [, known] = await db.batch([
    db
      .insert(providerEvents)
      .values({
        provider: event.provider,
        eventId: event.eventId,
        type: event.type,
        entityId: event.entityId,
        receivedAt: event.now,
      })
      .onConflictDoNothing(),
    db
      .select({ handledAt: providerEvents.handledAt })
      .from(providerEvents)
      .where(and(eq(providerEvents.provider, event.provider), eq(providerEvents.eventId, event.eventId))),
  ]);
  return known[0]?.handledAt !== undefined && known[0]?.handledAt !== null;
}

export async function markProviderEventHandled(
  db: Database,
  provider: string,
  eventId: string,
  now: number,
): Promise<void> {
  await db
    .update(providerEvents)
    .set({ handledAt: sql`COALESCE(${providerEvents.handledAt}, ${now})` })
    .where(and(eq(providerEvents.provider, provider), eq(providerEvents.eventId, eventId)))
    .run();
}

/** Forget handled events received before `before` (the provider retries for about a day). */
export async function forgetProviderEvents(db: Database, before: number): Promise<number> {
  const result = await db
    .delete(providerEvents)
    .where(and(lt(providerEvents.receivedAt, before), isNotNull(providerEvents.handledAt)))
    .run();
  return result.meta.changes;
}
