/**
 * The checks a picked chat photo passes after the member taps Send in its preview and before it is
 * uploaded (docs/decisions/0064). Each check may stop the send, with a notice for the member or
 * none (the member cancelled in a dialog of its own); nothing is uploaded or charged then.
 */
export type PhotoCheckResult = { send: true } | { send: false; notice: string | null };
export type PhotoCheck = (file: File) => Promise<PhotoCheckResult>;

const checks: PhotoCheck[] = [];

/** Add a check every photo passes before it is sent; the function returned takes it off again. */
export function addPhotoCheck(check: PhotoCheck): () => void {
  checks.push(check);
  return () => {
    const at = checks.indexOf(check);
    if (at >= 0) checks.splice(at, 1);
  };
}

/** Run the checks in the order they were added; the first that stops the send decides. */
export async function beforeSendPhoto(file: File): Promise<PhotoCheckResult> {
  // A copy: a check may take itself off while the photo is checked.
  for (const check of checks.slice()) {
    const result = await check(file);
    if (!result.send) return result;
  }
  return { send: true };
}
