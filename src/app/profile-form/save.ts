import { useRef } from "react";
import useSWR, { useSWRConfig } from "swr";
import type { InterestsResponse, ProfileResponse, RegionsResponse } from "../../shared/api";
import type { ProfileUpdateBody } from "../../shared/profile";
import { ApiRequestError, apiSend } from "../page/api";
import { useApiForm } from "../components/Form";
import { profileKey, REGIONS_KEY } from "../page/page-data";

const INTERESTS_KEY = "/api/interests.php";
const regionsKey = (country: string) => `${REGIONS_KEY}?country=${country}`;

type ProfileField = keyof ProfileUpdateBody;

/**
 * What the profile forms read: the member's own profile (to prefill, and for country and gender),
 * the regions of the member's country and the interests. Used by the signup steps and the profile
 * edit screen; loaded as soon as the screen shows, so the forms that need them seldom wait.
 */
export function useProfileFormData(profileId: number | null) {
  const profile = useSWR<ProfileResponse, ApiRequestError>(profileId === null ? null : profileKey(profileId));
  const country = profile.data?.profile.country;
  const regions = useSWR<RegionsResponse, ApiRequestError>(country ? regionsKey(country) : null);
  const interests = useSWR<InterestsResponse, ApiRequestError>(profileId === null ? null : INTERESTS_KEY);
  return { profile, regions, interests };
}

export type ProfileFormData = ReturnType<typeof useProfileFormData>;

/** A field of a list item ("interests.3") is the list's field, so its text shows under the list. */
const topField = (name: string) => name.split(".")[0]!;

/** PUT /api/profile.php; throws ApiRequestError with the fields named as the form names them. */
async function saveProfile(body: ProfileUpdateBody): Promise<ProfileResponse> {
  try {
    return await apiSend<ProfileResponse>("PUT", "/api/profile.php", body);
  } catch (error) {
    if (!(error instanceof ApiRequestError)) throw error;
    const { field, fields } = error.body;
    const named: Record<string, string> = {};
    for (const [name, text] of Object.entries(fields ?? {})) named[topField(name)] ??= text;
    throw new ApiRequestError(error.status, {
      ...error.body,
      ...(field ? { field: topField(field) } : {}),
      ...(fields ? { fields: named } : {}),
    });
  }
}

/** Equal values; lists (interests) are equal when they hold the same items in any order. */
function same(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b)) return a === b;
  const items = new Set<unknown>(a);
  return a.length === b.length && b.every((item) => items.has(item));
}

/** The fields of `body` whose value differs from what the profile had. */
function changedFields(body: ProfileUpdateBody, initial: ProfileUpdateBody): ProfileUpdateBody {
  const changed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body))
    if (!same(value, initial[name as ProfileField])) changed[name] = value;
  return changed as ProfileUpdateBody;
}

/** What a profile form does after a save, and while the member edits it. */
export type SaveCallbacks = {
  /** The save went through (or there was nothing to send). */
  onSaved: () => void;
  /** The member changed a field (to hide an earlier "Saved"). */
  onEdit?: (() => void) | undefined;
};

/**
 * The save of one profile form: `save(body)` sends what changed, keeps the profile cache up to date
 * and then calls `onSaved`; nothing changed calls it without a request. A second press while the
 * first is under way is ignored (a ref, so even two clicks before the next render send once).
 * `edit(name)` is for every change of a field: it clears that field's error and tells `onEdit`.
 */
export function useProfileSave(
  fields: readonly ProfileField[],
  profileId: number,
  initial: ProfileUpdateBody,
  { onSaved, onEdit }: SaveCallbacks,
) {
  const form = useApiForm(fields);
  const { mutate } = useSWRConfig();
  const sending = useRef(false);

  const save = async (body: ProfileUpdateBody) => {
    if (sending.current) return;
    const changed = changedFields(body, initial);
    if (Object.keys(changed).length === 0) {
      onSaved();
      return;
    }
    sending.current = true;
    try {
      const saved: { answer?: ProfileResponse } = {};
      const ok = await form.run(async () => {
        saved.answer = await saveProfile(changed);
      });
      if (ok && saved.answer) {
        await mutate(profileKey(profileId), saved.answer, { revalidate: false });
        onSaved();
      }
    } finally {
      sending.current = false;
    }
  };

  const edit = (name: ProfileField) => {
    form.clearField(name);
    onEdit?.();
  };

  return { form, save, edit };
}
