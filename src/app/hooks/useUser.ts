import useSWR, { useSWRConfig } from "swr";
import type { User } from "../../shared/api";
import { ApiRequestError, apiFetch } from "../page/api";
import { usePage } from "../page/page-context";

export const USER_KEY = "/api/user.php";
export type UserResponse = { user: User | null };

/** GET /api/user.php, where a visitor (403 authentication_required) is simply no user. */
async function fetchUser(key: string): Promise<UserResponse> {
  try {
    return await apiFetch<UserResponse>(key);
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 403) return { user: null };
    throw error;
  }
}

/** Drop the data the page was rendered with (the swr fallback), but the user's: it was someone else's. */
function forgetRendered(fallback: Record<string, unknown>) {
  for (const key of Object.keys(fallback)) if (key !== USER_KEY) delete fallback[key];
}

/** The signed-in member (null for a visitor), starting from what the server rendered the page with. */
export function useUser(): { user: User | null; setUser: (user: User | null) => Promise<unknown> } {
  const page = usePage();
  const { data, mutate } = useSWR<UserResponse>(USER_KEY, fetchUser, {
    fallbackData: { user: page.user },
    revalidateOnMount: false,
  });
  const { mutate: mutateAny } = useSWRConfig();
  const setUser = async (user: User | null) => {
    const before = data?.user ?? null;
    if (user !== null && before?.profile.id !== user.profile.id) {
      // Someone else now (a visitor who signed up or logged in): what was cached or rendered for the
      // visitor (search, first matches) is not theirs. Drop it, so each list is asked for again.
      forgetRendered(page.fallback);
      await mutateAny((key) => key !== USER_KEY, undefined, { revalidate: false });
    }
    return mutate({ user }, { revalidate: false });
  };
  return { user: data?.user ?? null, setUser };
}
