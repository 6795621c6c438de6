import { useEffect, useRef, useState } from "react";
import useSWR from "swr";
import { type ApiRequestError, apiSend, apiSendForm } from "../../page/api";
import { FormMessage } from "../../components/Form";
import { VerifiedBadge } from "../../components/VerifiedBadge";
import { useT } from "../../page/page-context";
import { PHOTO_FIELD } from "../../../shared/photos";
import { VERIFICATION_POSES, type VerificationPose, type VerificationState } from "../../../shared/verification";
import { VERIFICATION_KEY } from "../settings/VerifiedOnlySection";
import { useErrorText } from "./OwnPhotoList";

/** The pose's line drawing, shown beside the live picture (the moderator sees the same one). */
export function PoseDrawing({ pose, label }: { pose: VerificationPose; label: string }) {
  return (
    <svg className="verification__pose" viewBox="0 0 100 100" role="img" aria-label={label}>
      <path
        d={VERIFICATION_POSES[pose]}
        fill="none"
        stroke="currentColor"
        strokeWidth="3"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

type Camera =
  | { state: "off" }
  | { state: "live"; stream: MediaStream }
  | { state: "taken"; photo: Blob; url: string }
  | { state: "none" };

/**
 * Verify yourself (docs/decisions/0040), on the member's own profile: where they stand, and while
 * they may send a selfie, the pose the server drew (docs/decisions/0049) with its drawing beside the
 * front camera's live picture, the photo taken from it, checked and sent to a moderator. The member
 * never picks the pose: "another pose" asks the server for a new one, a few times a day. Without a camera, how to do it
 * from a phone. A rejection shows its statement: what was decided, why, how to try again.
 */
export function VerificationSection() {
  const t = useT();
  const errorText = useErrorText();
  const { data, mutate } = useSWR<{ verification: VerificationState }, ApiRequestError>(VERIFICATION_KEY);
  const [camera, setCamera] = useState<Camera>({ state: "off" });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const video = useRef<HTMLVideoElement>(null);
  const state = data?.verification;

  useEffect(() => {
    if (camera.state === "live" && video.current) {
      video.current.srcObject = camera.stream;
      // Started here rather than by autoplay, which the site's permissions policy denies.
      void video.current.play().catch(() => undefined);
    }
    return () => {
      if (camera.state === "live") for (const track of camera.stream.getTracks()) track.stop();
      if (camera.state === "taken") URL.revokeObjectURL(camera.url);
    };
  }, [camera]);

  const open = async () => {
    setError(null);
    if (!navigator.mediaDevices?.getUserMedia) return setCamera({ state: "none" });
    try {
      const stream = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: "user", width: { ideal: 960 } },
        audio: false,
      });
      setCamera({ state: "live", stream });
    } catch {
      setCamera({ state: "none" });
    }
  };

  const take = () => {
    const source = video.current;
    if (!source || !source.videoWidth) return;
    const canvas = document.createElement("canvas");
    canvas.width = source.videoWidth;
    canvas.height = source.videoHeight;
    canvas.getContext("2d")?.drawImage(source, 0, 0);
    canvas.toBlob(
      (blob) => blob && setCamera({ state: "taken", photo: blob, url: URL.createObjectURL(blob) }),
      "image/jpeg",
      0.9,
    );
  };

  const send = async (pose: VerificationPose, photo: Blob) => {
    setBusy(true);
    setError(null);
    try {
      const form = new FormData();
      form.append(PHOTO_FIELD, photo, "selfie.jpg");
      await mutate(await apiSendForm<{ verification: VerificationState }>(`${VERIFICATION_KEY}?pose=${pose}`, form), {
        revalidate: false,
      });
      setCamera({ state: "off" });
    } catch (failure) {
      setError(errorText(failure));
      // An expired pose: the server has the pose to take now.
      void mutate();
    } finally {
      setBusy(false);
    }
  };

  const anotherPose = async () => {
    setBusy(true);
    setError(null);
    try {
      await mutate(await apiSend<{ verification: VerificationState }>("POST", `${VERIFICATION_KEY}?action=new_pose`), {
        revalidate: false,
      });
      if (camera.state === "taken") void open();
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };

  if (!state) return null;
  const pose = state.pose;
  const poseText = pose ? t(`verification.poses.${pose}`) : "";
  return (
    <section className="profile-edit__section verification" id="verification" aria-labelledby="verification-title">
      <h2 id="verification-title">
        {t("verification.title")} {state.status === "verified" && <VerifiedBadge />}
      </h2>
      {state.status === "verified" && <p className="notice notice--success">{t("verification.verified")}</p>}
      {state.status === "paused" && <p className="notice">{t("verification.paused")}</p>}
      {state.status === "pending" && <p className="notice">{t("verification.pending")}</p>}
      {state.status === "fictional" && <p className="notice">{t("verification.fictional")}</p>}
      {state.status === "suspended" && <p className="notice">{t("verification.suspended")}</p>}
      {state.status === "rejected" && (
        <div className="notice notice--warning verification__statement" role="status">
          <p>
            <strong>{t("verification.statement_title")}</strong>
          </p>
          <p>{t("verification.statement_what")}</p>
          {state.reason && (
            <p>{t("verification.statement_why", { reason: t(`verification.reasons.${state.reason}`) })}</p>
          )}
          <p>{t("verification.statement_how")}</p>
        </div>
      )}
      {(state.status === "none" || state.status === "rejected" || state.status === "suspended") && (
        <>
          {state.status === "none" && <p>{t("verification.intro")}</p>}
          {pose ? (
            <>
              <p className="verification__attempts">
                {t("verification.attempts_left", { count: state.attempts_left })}
              </p>
              <div className="verification__stage">
                <figure className="verification__figure">
                  <PoseDrawing pose={pose} label={t("verification.pose_drawing")} />
                  <figcaption>
                    {t("verification.pose_label")} <strong>{poseText}</strong>
                    <span className="verification__pose-hint">
                      {/* The text says 15 minutes: VERIFICATION_POSE_SECONDS. */}
                      {t("verification.pose_hint")}
                    </span>
                  </figcaption>
                </figure>
                {camera.state === "live" && (
                  <figure className="verification__figure">
                    <video
                      ref={video}
                      className="verification__video"
                      playsInline
                      muted
                      aria-label={t("verification.live_picture")}
                    />
                  </figure>
                )}
                {camera.state === "taken" && (
                  <figure className="verification__figure">
                    <img className="verification__video" src={camera.url} alt={t("verification.your_selfie")} />
                  </figure>
                )}
              </div>
              {camera.state === "none" && (
                <p className="notice">{t("verification.no_camera", { url: `${location.host}/profile` })}</p>
              )}
              <div className="verification__actions">
                {(camera.state === "off" || camera.state === "none") && (
                  <button type="button" className="button button--primary" onClick={() => void open()}>
                    {state.status === "rejected" ? t("verification.try_again") : t("verification.open_camera")}
                  </button>
                )}
                {camera.state === "live" && (
                  <button type="button" className="button button--primary" onClick={take}>
                    {t("verification.take_photo")}
                  </button>
                )}
                {camera.state === "taken" && (
                  <>
                    <button
                      type="button"
                      className="button button--primary"
                      disabled={busy}
                      onClick={() => void send(pose, camera.photo)}
                    >
                      {busy ? t("verification.sending") : t("verification.send")}
                    </button>
                    <button type="button" className="button button--ghost" disabled={busy} onClick={() => void open()}>
                      {t("verification.retake")}
                    </button>
                  </>
                )}
                {state.new_poses_left > 0 && (
                  <button
                    type="button"
                    className="button button--ghost"
                    disabled={busy}
                    onClick={() => void anotherPose()}
                  >
                    {t("verification.another_pose")}
                  </button>
                )}
              </div>
            </>
          ) : (
            <p className="notice">{t("verification.no_attempts")}</p>
          )}
        </>
      )}
      <FormMessage text={error} />
    </section>
  );
}
