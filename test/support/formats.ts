/** Formats the API's answers are held to: timestamps with milliseconds, ids of a prefix and 24 base62 characters. */
export const RFC3339_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const idPattern = (prefix: string) => new RegExp(`^${prefix}[0-9A-Za-z]{24}$`);
