/** Validation of the connection settings, shared by the settings reader and the sign-in inputs. */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Why a base URL cannot be used, or undefined when it can. */
export function baseUrlProblem(value: string): string | undefined {
  const text = value.trim();
  if (!text) return 'Enter the service URL, for example https://api.example.com';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'This is not a URL. Use the form https://host[:port][/path]';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'Use an http:// or https:// URL';
  if (url.username || url.password) return 'Leave credentials out of the URL: the token is asked for separately';
  if (url.search || url.hash) return 'Leave the query and fragment out of the URL';
  return undefined;
}

/** The base URL in a canonical form: no trailing slash, no whitespace. */
export function normalizeBaseUrl(value: string): string {
  const url = new URL(value.trim());
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** Why an organization ID cannot be used, or undefined when it can. */
export function organizationIdProblem(value: string): string | undefined {
  const text = value.trim();
  if (!text) return 'Enter the organization ID (a UUID)';
  if (!UUID.test(text)) return 'An organization ID is a UUID, like 3f2b8c1e-0d4a-4c57-9a1e-6b5f0e2d9c11';
  return undefined;
}

/** `host[:port]` of a base URL, for labels. */
export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

/** The origin of a base URL: the only place its token may be sent. */
export function originOf(baseUrl: string): string {
  return new URL(baseUrl).origin;
}
