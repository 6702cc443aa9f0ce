/** Formats the catalog's answers are held to. */
export const RFC3339_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const idPattern = (prefix: string) => new RegExp(`^${prefix}[0-9A-Za-z]{24}$`);
