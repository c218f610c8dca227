// Redirect URIs: which ones a client may register (RFC 6749 3.1.2, RFC 8252, OAuth 2.1) and how a
// requested one is matched against the registered ones (exact, except the port of loopback URIs).

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

/** Schemes that would run code or read local data if a browser were redirected to them. */
const FORBIDDEN_SCHEMES = new Set([
  "javascript",
  "data",
  "file",
  "vbscript",
  "about",
  "blob",
  "filesystem",
  "view-source",
  "ws",
  "wss",
  "ftp",
  "mailto",
  "tel",
  "sms",
]);

const MAX_REDIRECT_URI_LENGTH = 2000;

export function isLoopbackRedirect(url: URL): boolean {
  return url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);
}

/**
 * Why a redirect URI may not be registered, or undefined when it may. Allowed: https anywhere; http
 * only on loopback (127.0.0.1, [::1], localhost) for native apps; private-use schemes of native apps
 * (RFC 8252 7.1; reverse-domain names like com.example.app: are recommended, but MCP clients such
 * as Cursor use plain ones like cursor:). Never fragments, credentials, or script/data/file schemes.
 */
export function redirectUriProblem(value: string): string | undefined {
  if (value.length > MAX_REDIRECT_URI_LENGTH) return "is too long";
  if (value.includes("#")) return "must not contain a fragment";
  if (/\s/.test(value)) return "must not contain whitespace";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "is not an absolute URI";
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  if (url.username || url.password) return "must not contain credentials";
  if (scheme === "https") return url.hostname ? undefined : "must name a host";
  if (scheme === "http") {
    return isLoopbackRedirect(url)
      ? undefined
      : "must use https (http is allowed only on 127.0.0.1, [::1] or localhost)";
  }
  if (FORBIDDEN_SCHEMES.has(scheme)) return `must not use the ${scheme}: scheme`;
  if (!/^[a-z][a-z0-9+.-]*$/.test(scheme)) return "has an invalid scheme";
  if (value.length <= scheme.length + 1) return "is incomplete";
  return undefined;
}

/**
 * The registered redirect URI that `requested` matches, or undefined. Matching is exact string
 * comparison, except that a loopback redirect URI matches with any port (RFC 8252 7.3): native apps
 * listen on an ephemeral port chosen at run time.
 */
export function matchRedirectUri(requested: string, registered: readonly string[]): string | undefined {
  if (registered.includes(requested)) return requested;
  const wanted = withoutLoopbackPort(requested);
  if (wanted === undefined) return undefined;
  return registered.find((candidate) => withoutLoopbackPort(candidate) === wanted);
}

/** A loopback http URI as text with its port removed (no normalisation), else undefined. */
function withoutLoopbackPort(value: string): string | undefined {
  const match = /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)(?::(\d{1,5}))?([/?][^#]*)?$/.exec(value);
  if (!match) return undefined;
  return `http://${match[1]}${match[3] ?? ""}`;
}
