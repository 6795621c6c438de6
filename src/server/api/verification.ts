/**
 * /api/verification.php: the signed-in member's verification (docs/decisions/0040).
 *
 * - GET: `{ verification }`, the member's VerificationState with the pose the server drew when they
 *   may take a selfie: the same pose on every GET while it lives (docs/decisions/0049).
 * - POST `?action=new_pose`: another pose, a few a day; answers like GET.
 * - POST `?pose=<pose>`: the selfie as multipart/form-data, the file in the field `photo`, only for the
 *   live pose drawn; 201 `{ verification }`.
 * - PUT `{ verified_only }`: only verified members may start a conversation with the member; answers like GET.
 */
import { vValidator } from "@hono/valibot-validator";
import { type Context, Hono } from "hono";
import { VerificationSettingsBody } from "../../shared/verification";
import type { AppEnv } from "../request-context";
import { requireMember } from "../edge/signed-in-member";
import { askForAnotherPose, chooseVerifiedOnly, takeSelfie, verificationState } from "../services/verification";
import { AppError } from "../errors";
import { invalidBody } from "./body";
import { photoUpload } from "./photo-upload";

const unixNow = () => Math.floor(Date.now() / 1000);

async function state(c: Context<AppEnv>) {
  return c.json({ verification: await verificationState(c.get("db"), requireMember(c), unixNow()) });
}

export const verificationRoutes = new Hono<AppEnv>()
  .get("/api/verification.php", state)
  .post(
    "/api/verification.php",
    async (c, next) => {
      if (c.req.query("action") === undefined) return next();
      if (c.req.query("action") !== "new_pose")
        throw new AppError({
          status: 400,
          code: "invalid_parameter",
          key: "errors.invalid_parameter",
          values: { field: "action" },
          field: "action",
        });
      return c.json({ verification: await askForAnotherPose(c.get("db"), requireMember(c), unixNow()) });
    },
    ...photoUpload(
      requireMember,
      async (c, bytes) => {
        const { userId, profileId } = requireMember(c);
        return takeSelfie(
          { db: c.get("db"), bucket: c.env.PHOTOS },
          { userId, profileId, siteDomain: c.get("site").domain },
          c.req.query("pose") ?? "",
          bytes,
          unixNow(),
        );
      },
      "verification",
    ),
  )
  .put("/api/verification.php", vValidator("json", VerificationSettingsBody, invalidBody), async (c) => {
    await chooseVerifiedOnly(c.get("db"), requireMember(c).userId, c.req.valid("json").verified_only);
    return state(c);
  });
