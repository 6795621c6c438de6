import useSWR, { useSWRConfig } from "swr";
import { PHOTO_FIELD, type PhotoListResponse, type PhotoUploadResponse } from "../../../shared/photos";
import { ApiRequestError, apiSend, apiSendForm } from "../../page/api";
import { profileKey } from "../../page/page-data";
import { USER_KEY } from "../../hooks/useUser";

const PHOTOS_KEY = "/api/photos.php";

/** The file types an upload accepts (the server checks the content). */
export const PHOTO_ACCEPT = "image/jpeg,image/png,image/webp";

/**
 * The member's own photos (GET /api/photos.php, pending ones included) and what can be done with
 * them. After every change the photo list, the member's profile and the user (top bar, alerts) are
 * fetched again.
 */
export function useOwnPhotos(profileId: number) {
  const photos = useSWR<PhotoListResponse, ApiRequestError>(PHOTOS_KEY);
  const { mutate } = useSWRConfig();

  const refresh = async (list?: PhotoListResponse) => {
    await Promise.all([
      list ? mutate(PHOTOS_KEY, list, { revalidate: false }) : mutate(PHOTOS_KEY),
      mutate(profileKey(profileId)),
      mutate(USER_KEY),
    ]);
  };

  const upload = async (file: File) => {
    const form = new FormData();
    form.append(PHOTO_FIELD, file, file.name || "photo");
    await apiSendForm<PhotoUploadResponse>(PHOTOS_KEY, form);
    await refresh();
  };
  const makeMain = async (photoId: number) =>
    refresh(await apiSend<PhotoListResponse>("PUT", PHOTOS_KEY, { photo_id: photoId, main: true }));
  const move = async (photoId: number, position: number) =>
    refresh(await apiSend<PhotoListResponse>("PUT", PHOTOS_KEY, { photo_id: photoId, position }));
  const remove = async (photoId: number) =>
    refresh(await apiSend<PhotoListResponse>("DELETE", PHOTOS_KEY, { photo_id: photoId }));

  return { photos, upload, makeMain, move, remove };
}

export type OwnPhotos = ReturnType<typeof useOwnPhotos>;
