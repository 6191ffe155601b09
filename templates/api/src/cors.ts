/** CORS_ORIGINS (comma-separated) → the allowed origins; unset or `*` allows every origin. */
export function corsOrigins(list: string | undefined): string | string[] {
  const origins = (list ?? '*')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  return origins.length === 0 || origins.includes('*') ? '*' : origins;
}
