/** The traffic source fields (SPEC §3 Tracking): taken from a landing URL, kept through signup. */
export const TRACKING_FIELDS = ["network", "ref", "sub1", "sub2", "sub3"] as const;
