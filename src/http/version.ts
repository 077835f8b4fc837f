/** Spec 9: the version is part of every path. */
export const API_PREFIX = "/api/v1.1";
