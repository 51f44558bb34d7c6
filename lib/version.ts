/** Kept in step with deno.json by a test, so the hot path need not import the JSON file. */
export const VERSION = "0.1.0";
