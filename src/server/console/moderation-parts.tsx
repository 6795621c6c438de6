/**
 * What the moderation screens share: the moderator of the request for the services, a member's
 * profile and photos as a moderator reads them, and the ground picker.
 */
import type { Context } from "hono";
import type { Database } from "../db/database";
import { decisionsAbout, memberForModeration, photosOfProfile } from "../db/moderation";
import type { Moderator } from "../services/moderation";
import { DECISION_GROUNDS, type DecisionGround } from "../../shared/moderation";
import { conversationRooms } from "../services/chats";
import { actorOf } from "./audited-action";
import type { ConsoleEnv } from "./console-context";
import { when } from "./console-page";

export function moderatorOf(c: Context<ConsoleEnv>): Moderator {
  const actor = actorOf(c.var.operator);
  return {
    env: c.env,
    db: c.var.db,
    actor: { ...actor, operatorId: c.var.operator.id },
    now: Math.floor(Date.now() / 1000),
  };
}

/** A photo as the console shows it (its own route: operators see every photo, whatever its status). */
export function PhotoImage({ id, size, label }: { id: number; size: "thumb" | "full"; label: string }) {
  return (
    <img
      src={`/photos/file/${id}?size=${size}`}
      alt={label}
      style={size === "thumb" ? { width: 120, height: 120, objectFit: "cover" } : { maxWidth: "100%", maxHeight: 480 }}
    />
  );
}

/** What the member panel shows, loaded by the handler. */
export async function memberPanelData(db: Database, profileId: number) {
  const member = await memberForModeration(db, profileId);
  if (!member) return null;
  const [photos, decisions] = await Promise.all([
    photosOfProfile(db, member.profileId),
    decisionsAbout(db, member.userId),
  ]);
  return { member, photos, decisions };
}
type PanelData = NonNullable<Awaited<ReturnType<typeof memberPanelData>>>;

/** The member beside an item: profile facts, every photo with its status, and earlier decisions. */
export function MemberPanel({
  data: { member, photos, decisions },
  t,
}: {
  data: PanelData;
  t: ConsoleEnv["Variables"]["t"];
}) {
  return (
    <fieldset>
      <legend>{`Member: ${member.name} (profile ${member.profileId}, @${member.username})`}</legend>
      <p>{`${member.gender}, born ${member.birthDate}, ${member.city ?? "no city"} (${member.country}); signed up ${when(member.signupDate)} on ${member.siteDomain}; language ${member.language}`}</p>
      <p>{`Account ${member.accountStatus}, profile ${member.profileStatus}${member.restrictedAt ? `, restricted since ${when(member.restrictedAt)}` : ""}`}</p>
      <p>
        <strong>About me: </strong>
        {member.aboutMe ?? "(empty)"}
      </p>
      <div style={{ display: "flex", gap: ".5rem", flexWrap: "wrap" }}>
        {photos.map((photo) => (
          <figure key={photo.id} style={{ margin: 0 }}>
            <PhotoImage id={photo.id} size="thumb" label={`Photo ${photo.id}`} />
            <figcaption>{`#${photo.id} ${photo.status}`}</figcaption>
          </figure>
        ))}
        {photos.length === 0 && <p>No photos.</p>}
      </div>
      <h3>Earlier decisions about this member</h3>
      {decisions.length === 0 ? (
        <p>None.</p>
      ) : (
        <ul>
          {decisions.map((d) => (
            <li
              key={d.id}
            >{`${when(d.createdAt)}: ${d.outcome}${d.ground ? ` (${t(`moderation.grounds.${d.ground}.name`)})` : ""} by ${d.operator ?? "?"}${d.facts ? `: ${d.facts}` : ""}`}</li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}

/** The rule a decision rests on: one of the grounds, named in English for operators. */
export function GroundPicker({
  grounds = DECISION_GROUNDS,
  t,
  required,
}: {
  grounds?: readonly DecisionGround[];
  t: ConsoleEnv["Variables"]["t"];
  required: boolean;
}) {
  return (
    <label>
      Rule of the terms{" "}
      <select name="ground" required={required} defaultValue="">
        <option value="">{required ? "choose…" : "none"}</option>
        {grounds.map((ground) => (
          <option key={ground} value={ground}>
            {t(`moderation.grounds.${ground}.name`)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The messages of the conversation the reporter could see, around the message reported (or the latest). */
export async function messagesSeen(env: Env, reporter: number, peer: number, messageId: number | null) {
  try {
    const page = await conversationRooms(env.CONVERSATIONS)(reporter, peer).history(
      reporter,
      peer,
      messageId === null ? null : messageId + 6,
      0,
    );
    return page.rows;
  } catch {
    return [];
  }
}

type SeenMessage = Awaited<ReturnType<typeof messagesSeen>>[number];

/** The messages the reporter could see, the one reported marked. */
export function SeenMessages({
  messages,
  reporterId,
  markedId,
  legend = "Messages the reporter could see",
}: {
  messages: SeenMessage[];
  reporterId: number | null;
  markedId: number | null;
  legend?: string;
}) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      <table>
        <tbody>
          {messages.map((message) => (
            <tr key={message.id} style={message.id === markedId ? { background: "#fff3c4" } : undefined}>
              <td>{`#${message.id}`}</td>
              <td>{when(message.created_at)}</td>
              <td>{message.sender_id === reporterId ? "reporter" : "reported member"}</td>
              <td>{message.kind === "text" ? (message.body ?? "(removed)") : `(${message.kind})`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </fieldset>
  );
}
