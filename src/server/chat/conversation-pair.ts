/**
 * Which pair of profiles a conversation's object belongs to (named by its first caller, kept in the
 * object's storage) and the pair's conversation row in D1 (created on the first message).
 */
import { conversationOf, ensureConversation, pairOf, type ConversationRecord } from "../db/conversations";
import type { Database } from "../db/database";

const PAIR_KEY = "pair";

export class ConversationPair {
  private pair: [number, number] | null;
  /** The conversation's D1 record once it exists (the object creates it on the first message). */
  private record: ConversationRecord | null = null;

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly db: Database,
  ) {
    this.pair = storage.kv.get<[number, number]>(PAIR_KEY) ?? null;
  }

  /** The object belongs to one pair: the first caller names it, later callers must be of it. */
  claim(profileId: number, peer: number): boolean {
    const pair = pairOf(profileId, peer);
    if (!this.pair) {
      this.pair = pair;
      this.storage.kv.put(PAIR_KEY, pair);
    }
    return this.pair[0] === pair[0] && this.pair[1] === pair[1];
  }

  mustBe(one: number, other: number): void {
    if (!this.claim(one, other)) throw new Error("wrong conversation");
  }

  includes(profileId: number): boolean {
    return this.pair?.includes(profileId) ?? false;
  }

  /** The other member of the pair. */
  otherOf(profileId: number): number {
    const [a, b] = this.pair!;
    return profileId === a ? b : a;
  }

  /** Both members, the lower profile id first. */
  get members(): [number, number] {
    return this.pair!;
  }

  /** The D1 row, read once it is needed and kept. */
  async d1Record(): Promise<ConversationRecord | null> {
    if (this.record === null && this.pair) this.record = await conversationOf(this.db, this.pair[0], this.pair[1]);
    return this.record;
  }

  /** The D1 row's id as last read (null before it is known). */
  get knownId(): number | null {
    return this.record?.id ?? null;
  }

  /** The D1 row, made on the conversation's first message. */
  async d1Id(sender: number, recipient: number): Promise<number> {
    const known = (await this.d1Record())?.id;
    if (known !== undefined) return known;
    const id = await ensureConversation(this.db, sender, recipient);
    this.record = { id };
    return id;
  }
}
