/**
 * The base URL of links: the configured one, else the origin the client used (protocol and Host header as
 * received; behind a proxy set PUBLIC_BASE_URL, since the gateway does not trust X-Forwarded-* headers).
 */
export function baseUrlOf(publicBaseUrl: string | undefined, request: { protocol: string; host: string | undefined }): string {
  if (publicBaseUrl) return publicBaseUrl;
  const host = request.host && /^[A-Za-z0-9.\-_[\]:]+$/.test(request.host) ? request.host : 'localhost';
  return `${request.protocol}://${host}`;
}
