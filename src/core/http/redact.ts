/**
 * Secrets that travel in query strings (OAuth codes and tokens, a client_secret given in the URL,
 * passwords, E-utilities and other API keys) never reach a log line: their values are replaced.
 */
const SECRET_NAMES = new Set(['code', 'access_token', 'refresh_token', 'id_token', 'token', 'client_secret', 'password', 'api_key', 'apikey', 'code_verifier', 'secret']);

export const REDACTED = 'REDACTED';

/** The URL with the values of secret parameters replaced; everything else as sent. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const parts = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      let name: string;
      try {
        name = decodeURIComponent(pair.slice(0, eq).replace(/\+/g, ' '));
      } catch {
        name = pair.slice(0, eq);
      }
      return SECRET_NAMES.has(name.toLowerCase()) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
    });
  return `${url.slice(0, q)}?${parts.join('&')}`;
}
