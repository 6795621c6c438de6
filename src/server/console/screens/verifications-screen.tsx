/**
 * The verification queue (moderators; docs/decisions/0040): waiting selfies oldest first, each beside
 * the drawing of the pose the member was asked for and the member's public (approved) photos; approve
 * against the approved main photo shown, or reject with a reason from the list. Without an approved
 * main photo there is nothing to approve against: no Approve button, and the server refuses it too
 * (docs/decisions/0049). The selfie and the photos are served here, on the console's host, to
 * moderators only; no member route serves a selfie.
 */
import { Hono, type Context } from "hono";
import * as v from "valibot";
import { isPose, VERIFICATION_POSES, VERIFICATION_REJECTIONS } from "../../../shared/verification";
import { countVerificationQueue, publicPhotosOf, verificationById, verificationQueue } from "../../db/verification";
import { decideOnVerification } from "../../services/verification";
import { actorOf } from "../audited-action";
import type { ConsoleEnv, ConsoleScreen } from "../console-context";
import { actionDone, idParam, readForm } from "../console-forms";
import { FormError, QueuePager, queuePage, renderConsole, waited, when } from "../console-page";
import { ConsoleRefusal } from "../console-refusal";

/** Each item shows the selfie and the member's photos, so a page holds fewer than the other queues. */
const QUEUE_PAGE = 20;

const Approve = v.object({
  seen_photo_id: v.optional(v.pipe(v.string(), v.regex(/^\d*$/, "The photo seen is a photo id."))),
});
const Reject = v.object({ reason: v.picklist(VERIFICATION_REJECTIONS, "Choose a reason from the list.") });

/** The pose's line drawing, as the member saw it. */
function PoseDrawing({ pose, label }: { pose: string; label: string }) {
  const path = isPose(pose) ? VERIFICATION_POSES[pose] : "";
  return (
    <svg
      viewBox="0 0 100 100"
      width="160"
      height="160"
      role="img"
      aria-label={label}
      style={{ background: "#fff", border: "1px solid #ddd" }}
    >
      <path d={path} fill="none" stroke="#23233a" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

async function serveObject(c: Context<ConsoleEnv>, key: string | null): Promise<Response> {
  const object = key ? await c.env.PHOTOS.get(key) : null;
  if (!object) throw new ConsoleRefusal(404, "not_found", "That picture is no longer kept.");
  return new Response(object.body, {
    headers: {
      "content-type": "image/jpeg",
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
    },
  });
}

async function waitingItem(c: Context<ConsoleEnv>, id: number) {
  const found = await verificationById(c.var.db, id);
  if (!found) throw new ConsoleRefusal(404, "not_found", "There is no such verification.");
  return found;
}

const routes = new Hono<ConsoleEnv>()
  .get("/", async (c) => {
    const db = c.var.db;
    const t = c.var.t;
    const { page, size, offset } = queuePage(c, QUEUE_PAGE);
    const [queue, total] = await Promise.all([verificationQueue(db, size, offset), countVerificationQueue(db)]);
    const now = Math.floor(Date.now() / 1000);
    const photos = await Promise.all(queue.map((item) => publicPhotosOf(db, item.profileId)));
    return renderConsole(
      c,
      "Verifications",
      <>
        <p>
          Oldest first. Compare the selfie with the drawing of the pose and with the member's approved photos. Approving
          gives the badge for the approved main photo shown here; another main photo later pauses it and brings the
          member back to this queue. Without an approved main photo there is nothing to approve yet.
        </p>
        {total === 0 ? (
          <p className="notice">No selfie is waiting.</p>
        ) : (
          <QueuePager path="/verifications" page={page} size={size} total={total} shown={queue.length} />
        )}
        {queue.map((item, i) => {
          const seen = photos[i]!.find((photo) => photo.id === item.mainPhotoId) ?? null;
          return (
            <section
              key={item.id}
              className="notice"
              aria-label={`Verification ${item.id}`}
              data-verification={item.id}
            >
              <h2>
                {item.name} (profile {item.profileId}, {item.siteDomain}) ·{" "}
                {`${item.kind === "photo_check" ? "new main photo" : "selfie"} · asked ${when(item.askedAt)} · waiting ${waited(now - item.askedAt)}`}
              </h2>
              <div style={{ display: "flex", gap: "1rem", flexWrap: "wrap", alignItems: "flex-start" }}>
                <figure>
                  <PoseDrawing pose={item.pose} label={t(`verification.poses.${item.pose}`)} />
                  <figcaption>Pose: {t(`verification.poses.${item.pose}`)}</figcaption>
                </figure>
                <figure>
                  {item.selfieKey ? (
                    <img src={`/verifications/${item.id}/selfie`} alt={`Selfie of ${item.name}`} width={240} />
                  ) : (
                    <p>The selfie is no longer kept.</p>
                  )}
                  <figcaption>Selfie</figcaption>
                </figure>
                {photos[i]!.map((photo) => (
                  <figure key={photo.id}>
                    <img
                      src={`/verifications/${item.id}/photos/${photo.id}`}
                      alt={`Photo ${photo.id} of ${item.name}`}
                      width={160}
                    />
                    <figcaption>{photo.id === item.mainPhotoId ? "Main photo" : `Photo ${photo.id}`}</figcaption>
                  </figure>
                ))}
                {photos[i]!.length === 0 && <p>No public photo.</p>}
              </div>
              {item.fictional ? (
                <p className="error">A fictional profile is never verified.</p>
              ) : (
                <>
                  {seen ? (
                    <form method="post" action={`/verifications/${item.id}/approve`} className="inline">
                      <input type="hidden" name="seen_photo_id" value={seen.id} />
                      <button type="submit">Approve</button>
                      <FormError />
                    </form>
                  ) : (
                    <p className="error" data-no-approved-photo>
                      No approved main photo: nothing to approve against. Approve appears once the member's main photo
                      is approved; reject it or let it wait.
                    </p>
                  )}
                  <form method="post" action={`/verifications/${item.id}/reject`}>
                    <label>
                      Reject because{" "}
                      <select name="reason" required defaultValue="">
                        <option value="" disabled>
                          choose a reason
                        </option>
                        {VERIFICATION_REJECTIONS.map((reason) => (
                          <option key={reason} value={reason}>
                            {t(`verification.reasons.${reason}`)}
                          </option>
                        ))}
                      </select>
                    </label>
                    <button type="submit">Reject</button>
                    <FormError />
                  </form>
                </>
              )}
            </section>
          );
        })}
      </>,
    );
  })
  .get("/:id/selfie", async (c) =>
    serveObject(c, (await waitingItem(c, idParam(c.req.param("id")))).verification.selfieKey),
  )
  .get("/:id/photos/:photo", async (c) => {
    const found = await waitingItem(c, idParam(c.req.param("id")));
    const photoId = idParam(c.req.param("photo"));
    const photo = (await publicPhotosOf(c.var.db, found.verification.profileId)).find((p) => p.id === photoId);
    return serveObject(c, photo?.key ?? null);
  })
  .post("/:id/approve", async (c) => {
    const id = idParam(c.req.param("id"));
    const { seen_photo_id } = await readForm(c, Approve);
    await decideOnVerification(
      c.var.db,
      id,
      { approve: true, seenPhotoId: seen_photo_id ? Number(seen_photo_id) : null },
      actorOf(c.var.operator),
      Math.floor(Date.now() / 1000),
    );
    return actionDone(c, "/verifications");
  })
  .post("/:id/reject", async (c) => {
    const id = idParam(c.req.param("id"));
    const { reason } = await readForm(c, Reject);
    await decideOnVerification(
      c.var.db,
      id,
      { approve: false, reason },
      actorOf(c.var.operator),
      Math.floor(Date.now() / 1000),
      c.env,
    );
    return actionDone(c, "/verifications");
  });

export const verificationsScreen: ConsoleScreen = {
  path: "/verifications",
  label: "Verifications",
  role: "moderator",
  routes,
};
