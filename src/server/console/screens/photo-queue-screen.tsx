/**
 * Photos waiting for approval (moderators), oldest first: each with the member's other photos and
 * profile; approve, or reject on a rule of the terms with the facts (the member's statement of reasons).
 */
import { Hono } from "hono";
import * as v from "valibot";
import { countWaitingPhotos, photoById, waitingPhotos } from "../../db/moderation";
import { decidePhoto } from "../../services/moderation";
import { PHOTO_GROUNDS } from "../../../shared/moderation";
import type { ConsoleEnv, ConsoleScreen } from "../console-context";
import { actionDone, idParam, readForm, wantsJson } from "../console-forms";
import { FormError, QueuePager, queuePage, QueueTable, renderConsole, when } from "../console-page";
import { ConsoleRefusal } from "../console-refusal";
import { MemberPanel, memberPanelData, moderatorOf, PhotoImage } from "../moderation-parts";
import { StatementFields } from "../statement-fields";

const Reject = v.object({
  ground: v.picklist(PHOTO_GROUNDS, "Choose the rule the photo breaks."),
  fact_template: v.optional(v.pipe(v.string(), v.maxLength(60))),
  facts: v.pipe(v.string(), v.trim(), v.maxLength(1000)),
});

const routes = new Hono<ConsoleEnv>()
  .get("/", async (c) => {
    const { page, size, offset } = queuePage(c);
    const [photos, total] = await Promise.all([waitingPhotos(c.var.db, size, offset), countWaitingPhotos(c.var.db)]);
    if (wantsJson(c)) return c.json({ photos, waiting: total, page });
    const now = Math.floor(Date.now() / 1000);
    return renderConsole(
      c,
      "Photos waiting",
      total === 0 ? (
        <p className="notice">No photo is waiting.</p>
      ) : (
        <>
          <QueuePager path="/photos" page={page} size={size} total={total} shown={photos.length} />
          <QueueTable
            head={["Member"]}
            now={now}
            items={photos.map((photo) => ({
              id: photo.id,
              link: (
                <a href={`/photos/${photo.id}`}>
                  <PhotoImage id={photo.id} size="thumb" label={`Photo ${photo.id}, open to decide`} />
                </a>
              ),
              since: photo.createdAt,
              cells: [`${photo.name} (profile ${photo.profileId})`],
            }))}
          />
        </>
      ),
    );
  })
  .get("/file/:id", async (c) => {
    const photo = await photoById(c.var.db, idParam(c.req.param("id")));
    if (!photo) throw new ConsoleRefusal(404, "not_found", "There is no such photo.");
    const object = await c.env.PHOTOS.get(c.req.query("size") === "full" ? photo.key : photo.thumbKey);
    if (!object) throw new ConsoleRefusal(404, "not_found", "The photo's file is gone.");
    return c.body(object.body, 200, {
      "content-type": object.httpMetadata?.contentType ?? "image/jpeg",
      "cache-control": "private, no-store",
    });
  })
  .get("/:id", async (c) => {
    const photo = await photoById(c.var.db, idParam(c.req.param("id")));
    if (!photo) throw new ConsoleRefusal(404, "not_found", "There is no such photo.");
    const panel = await memberPanelData(c.var.db, photo.profileId);
    if (!panel) throw new ConsoleRefusal(404, "not_found", "The photo's member is gone.");
    const t = c.var.t;
    return renderConsole(
      c,
      `Photo ${photo.id}`,
      <>
        <p>{`Uploaded ${when(photo.createdAt)}, ${photo.width}×${photo.height}, status ${photo.status}.`}</p>
        <PhotoImage id={photo.id} size="full" label={`Photo ${photo.id}`} />
        {photo.status === "pending" ? (
          <div style={{ display: "flex", gap: "1rem", flexWrap: "wrap" }}>
            <form method="post" action={`/photos/${photo.id}/approve`}>
              <fieldset>
                <legend>Approve</legend>
                <p>The photo becomes public at once.</p>
                <button type="submit">Approve</button>
                <FormError />
              </fieldset>
            </form>
            <form method="post" action={`/photos/${photo.id}/reject`}>
              <fieldset>
                <legend>Reject</legend>
                <StatementFields grounds={PHOTO_GROUNDS} t={t} required />
                <button type="submit">Reject</button>
                <FormError />
              </fieldset>
            </form>
          </div>
        ) : (
          <p className="notice">This photo is not waiting any more.</p>
        )}
        <MemberPanel data={panel} t={t} />
      </>,
    );
  })
  .post("/:id/approve", async (c) => {
    await decidePhoto(moderatorOf(c), { photoId: idParam(c.req.param("id")), approve: true });
    return actionDone(c, "/photos");
  })
  .post("/:id/reject", async (c) => {
    const { ground, facts, fact_template } = await readForm(c, Reject);
    await decidePhoto(moderatorOf(c), {
      photoId: idParam(c.req.param("id")),
      approve: false,
      ground,
      facts,
      factTemplate: fact_template || null,
    });
    return actionDone(c, "/photos");
  });

export const photoQueueScreen: ConsoleScreen = { path: "/photos", label: "Photos", role: "moderator", routes };
