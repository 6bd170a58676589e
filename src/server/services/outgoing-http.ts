/**
 * Requests to addresses an admin typed (webhook endpoints, issue 32 §1), safe from server-side
 * request forgery: such an address must never reach this machine, its network, the cloud's
 * metadata service (169.254.169.254) or the database.
 *
 * Two checks, because a name's addresses can change between them (DNS rebinding):
 * - when the address is saved, `checkWebhookUrl`: https, no credentials, and every address the
 *   host name resolves to (or the IP literal itself) acceptable to `refusedAddress`;
 * - at every delivery, `postSafely`: the connection's address is chosen by our own `lookup` in the
 *   request, which resolves again and refuses the whole name when any of its addresses is refused,
 *   so the socket can only ever open to an address that was judged; an IP literal (which Node
 *   connects to without a lookup) is judged before the request. Redirects are never followed.
 *
 * `allowLoopback` (WEBHOOKS_ALLOW_LOOPBACK=1, development and tests) lets loopback addresses and
 * http:// through; every other private or reserved range stays refused even then.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { WEBHOOK_URL_MAX_LENGTH, WEBHOOK_URL_MESSAGES } from '../../shared/webhook-url.ts';

/** A host name's addresses (the default: the system's resolver, as `dns.lookup`, every address). */
export type Resolver = (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>;

/** `dns.lookup` with `all: true`, in the order the system gives. */
export const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, order: 'verbatim' })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));

/** How long `checkWebhookUrl` waits for a name to resolve. */
const RESOLVE_TIMEOUT_MS = 5000;

type Range = readonly [network: string, prefix: number];

/** A list of ranges of one family, with the short reason given for an address in them. */
function rule(reason: string, family: 'ipv4' | 'ipv6', ranges: readonly Range[]): { reason: string; list: BlockList } {
  const list = new BlockList();
  for (const [network, prefix] of ranges) list.addSubnet(network, prefix, family);
  return { reason, list };
}

const LOOPBACK = 'loopback address';

/** IPv4: the IANA special-purpose registry's ranges (RFC 6890 and successors), first match wins. */
const IPV4_LOOPBACK = rule(LOOPBACK, 'ipv4', [['127.0.0.0', 8]]);
const IPV4_RULES = [
  rule('unspecified address', 'ipv4', [['0.0.0.0', 8]]),
  rule('private address', 'ipv4', [
    ['10.0.0.0', 8],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
  ]),
  rule('carrier-grade NAT address', 'ipv4', [['100.64.0.0', 10]]),
  rule('link-local address', 'ipv4', [['169.254.0.0', 16]]),
  rule('multicast address', 'ipv4', [['224.0.0.0', 4]]),
  rule('broadcast address', 'ipv4', [['255.255.255.255', 32]]),
  rule('documentation address', 'ipv4', [
    ['192.0.2.0', 24],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
  ]),
  rule('benchmarking address', 'ipv4', [['198.18.0.0', 15]]),
  rule('reserved address', 'ipv4', [
    ['240.0.0.0', 4],
    ['192.0.0.0', 24], // IETF protocol assignments
    ['192.88.99.0', 24], // the deprecated 6to4 relay anycast
  ]),
];

/**
 * IPv6 is judged the other way round: only global unicast (2000::/3) may be reached, less the
 * ranges of it that are not the internet; the rest gets the most telling reason. The forms that
 * carry an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by that address
 * (`embeddedIpv4`) before these rules.
 */
const IPV6_LOOPBACK = rule(LOOPBACK, 'ipv6', [['::1', 128]]);
const IPV6_GLOBAL_UNICAST = rule('', 'ipv6', [['2000::', 3]]).list;
const IPV6_RULES = [
  rule('unspecified address', 'ipv6', [['::', 128]]),
  rule('private address', 'ipv6', [['fc00::', 7]]),
  rule('link-local address', 'ipv6', [['fe80::', 10]]),
  rule('multicast address', 'ipv6', [['ff00::', 8]]),
  rule('documentation address', 'ipv6', [
    ['2001:db8::', 32],
    ['3fff::', 20],
  ]),
  rule('benchmarking address', 'ipv6', [['2001:2::', 48]]),
  rule('reserved address', 'ipv6', [
    ['100::', 64], // discard-only
    ['64:ff9b:1::', 48], // local-use NAT64
    ['2001::', 23], // IETF protocol assignments: Teredo (2001::/32), ORCHID…
    ['fec0::', 10], // site-local, deprecated
  ]),
];

/** An IPv6 address's eight 16-bit words (from the WHATWG URL parser's canonical form); null if it is none. */
function ipv6Words(ip: string): number[] | null {
  let canonical: string;
  try {
    canonical = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  // The canonical form has no dotted tail and at most one `::`.
  const [head = '', tail] = canonical.split('::');
  const words = (part: string) => (part === '' ? [] : part.split(':').map((word) => parseInt(word, 16)));
  const before = words(head);
  const after = tail === undefined ? [] : words(tail);
  const all = tail === undefined ? before : [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
  return all.length === 8 && all.every((word) => Number.isInteger(word) && word >= 0 && word <= 0xffff) ? all : null;
}

/** The IPv4 address written in two words. */
const ipv4Of = (high: number, low: number): string => [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');

/** The IPv4 address an IPv6 address carries and connects to: IPv4-mapped, IPv4-compatible, NAT64 (64:ff9b::/96), 6to4 (2002::/16). */
function embeddedIpv4(words: readonly number[]): string | null {
  const [w0, w1, w2, w3, w4, w5, w6 = 0, w7 = 0] = words;
  const zeroTo = (count: number) => words.slice(0, count).every((word) => word === 0);
  if (zeroTo(5) && w5 === 0xffff) return ipv4Of(w6, w7); // ::ffff:a.b.c.d
  if (zeroTo(6) && (w6 !== 0 || w7 > 1)) return ipv4Of(w6, w7); // ::a.b.c.d (not :: nor ::1)
  if (w0 === 0x64 && w1 === 0xff9b && w2 === 0 && w3 === 0 && w4 === 0 && w5 === 0) return ipv4Of(w6, w7);
  if (w0 === 0x2002) return ipv4Of(w1 ?? 0, w2 ?? 0);
  return null;
}

/**
 * Null when a socket may be opened to `ip`, else a short reason ("loopback address"). Refused:
 * loopback (unless `allowLoopback`), unspecified, private, carrier-grade NAT, link-local,
 * multicast, broadcast, documentation, benchmarking and reserved ranges of IPv4 and IPv6; IPv6
 * forms that carry an IPv4 address are judged by it. Anything that is not an IP address is refused.
 */
export function refusedAddress(ip: string, options: { allowLoopback: boolean }): string | null {
  const family = isIP(ip);
  if (family === 4) {
    // BlockList answers false for what it cannot parse: only ever give it what isIP accepted.
    if (IPV4_LOOPBACK.list.check(ip, 'ipv4')) return options.allowLoopback ? null : LOOPBACK;
    return IPV4_RULES.find(({ list }) => list.check(ip, 'ipv4'))?.reason ?? null;
  }
  if (family !== 6) return 'not an IP address';
  if (ip.includes('%')) return 'scoped address'; // a zone (fe80::1%eth0) names a local interface
  const words = ipv6Words(ip);
  if (!words) return 'not an IP address';
  const inner = embeddedIpv4(words);
  if (inner !== null) return refusedAddress(inner, options);
  if (IPV6_LOOPBACK.list.check(ip, 'ipv6')) return options.allowLoopback ? null : LOOPBACK;
  const reason = IPV6_RULES.find(({ list }) => list.check(ip, 'ipv6'))?.reason;
  if (reason) return reason;
  return IPV6_GLOBAL_UNICAST.check(ip, 'ipv6') ? null : 'reserved address';
}

/** The URL's host as an IP address (brackets off an IPv6 literal), or null when it is a name. */
function ipLiteral(url: URL): string | null {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) === 0 ? null : host;
}

/**
 * The parsed URL, or the `url` field's message when it cannot be one: not a URL, over 2,000
 * characters, not https (http too with `allowLoopback`), or with a user name or password.
 */
function parseWebhookUrl(url: string, allowLoopback: boolean): URL | string {
  if (url.length > WEBHOOK_URL_MAX_LENGTH) return WEBHOOK_URL_MESSAGES.tooLong;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return WEBHOOK_URL_MESSAGES.invalid;
  }
  if (!(parsed.protocol === 'https:' || (allowLoopback && parsed.protocol === 'http:'))) return WEBHOOK_URL_MESSAGES.https;
  if (parsed.username !== '' || parsed.password !== '') return WEBHOOK_URL_MESSAGES.credentials;
  return parsed;
}

/** `resolve(hostname)`, failing after `ms`. */
function resolveWithin(resolve: Resolver, hostname: string, ms: number): Promise<{ address: string; family: 4 | 6 }[]> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    resolve(hostname),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('lookup timed out')), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Null when a webhook address may be saved, else the message for its `url` field
 * (`WEBHOOK_URL_MESSAGES`). An IP literal is judged as it is — the WHATWG parser has already
 * turned `2130706433`, `0177.0.0.1` or `0x7f.1` into `127.0.0.1` — and a host name by every
 * address it resolves to now (one refused address refuses the name). Which address, and why, is
 * not said: the admin learns nothing of the internal network.
 */
export async function checkWebhookUrl(url: string, options: { allowLoopback: boolean; resolve?: Resolver }): Promise<string | null> {
  const parsed = parseWebhookUrl(url, options.allowLoopback);
  if (typeof parsed === 'string') return parsed;
  const literal = ipLiteral(parsed);
  if (literal !== null) return refusedAddress(literal, options) === null ? null : WEBHOOK_URL_MESSAGES.notPublic;
  let addresses: { address: string }[];
  try {
    addresses = await resolveWithin(options.resolve ?? systemResolver, parsed.hostname, RESOLVE_TIMEOUT_MS);
  } catch {
    return WEBHOOK_URL_MESSAGES.notFound;
  }
  if (addresses.length === 0) return WEBHOOK_URL_MESSAGES.notFound;
  return addresses.every(({ address }) => refusedAddress(address, options) === null) ? null : WEBHOOK_URL_MESSAGES.notPublic;
}

/** What `postSafely` reports: never thrown. */
export interface PostResult {
  /** A 2xx answer arrived, in time. */
  ok: boolean;
  /** The answer's status; null when none arrived (refused, unreachable, timed out before it). */
  status: number | null;
  /** From the start to the end of the answer (or the failure), in milliseconds. */
  latencyMs: number;
  /** The answer's first bytes (at most `maxResponseBytes`), as UTF-8 text; '' when none. */
  responseExcerpt: string;
  /** Why it failed, short ("timed out", "refused: loopback address", "redirect not followed"); null for any answer other than a redirect. */
  error: string | null;
}

/** The code an error carries when our lookup refuses a name. */
const REFUSED_CODE = 'ERR_WEBHOOK_REFUSED_ADDRESS';

/**
 * A `lookup` for http(s).request: resolves through `resolve` and fails the connection when any
 * address of the name is refused, so the socket only ever opens to a judged address. Answers
 * both ways Node asks (`all: true` for happy eyeballs, or one address).
 */
export function safeLookup(resolve: Resolver, options: { allowLoopback: boolean }): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    resolve(hostname).then(
      (found) => {
        const wanted = lookupOptions.family === 4 || lookupOptions.family === 6 ? found.filter(({ family }) => family === lookupOptions.family) : found;
        const refused = found.map(({ address }) => refusedAddress(address, options)).find((reason) => reason !== null);
        if (refused) return callback(Object.assign(new Error(`refused: ${refused}`), { code: REFUSED_CODE }), '', 0);
        const first = wanted[0];
        if (!first) return callback(Object.assign(new Error('host not found'), { code: 'ENOTFOUND' }), '', 0);
        if (lookupOptions.all)
          return callback(
            null,
            wanted.map(({ address, family }) => ({ address, family })),
          );
        return callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), '', 0),
    );
  };
}

/** Common network errors in a few words; others by their code or first line. */
const ERROR_WORDS: Record<string, string> = {
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found (temporary)',
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'timed out',
};

function errorText(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code === REFUSED_CODE && error instanceof Error) return error.message;
  if (typeof code === 'string' && ERROR_WORDS[code]) return ERROR_WORDS[code];
  if (typeof code === 'string') return code; // e.g. CERT_HAS_EXPIRED, ERR_TLS_CERT_ALTNAME_INVALID
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? '').slice(0, 200) || 'request failed';
}

/**
 * POSTs `body` to `url` with node:http(s) — never `fetch`, whose connection we could not steer —
 * and reports what happened; it never throws for network trouble. The connection's address comes
 * from `safeLookup` (or, for an IP literal, is judged first); a redirect is reported, not followed;
 * everything (lookup, connect, TLS, the whole answer) must end within `timeoutMs` (10 s), else the
 * request is destroyed and reported "timed out"; at most `maxResponseBytes` (64 KB) of the answer
 * are read, then the socket is destroyed. Sends `User-Agent: Fieldwork-Webhooks/1` and
 * `Content-Type: application/json` (over any given in `headers`).
 */
export async function postSafely(input: {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs?: number;
  maxResponseBytes?: number;
  allowLoopback: boolean;
  resolve?: Resolver;
}): Promise<PostResult> {
  const started = performance.now();
  const timeoutMs = input.timeoutMs ?? 10_000;
  const maxResponseBytes = input.maxResponseBytes ?? 65_536;
  const options = { allowLoopback: input.allowLoopback };
  const failed = (error: string, status: number | null = null, responseExcerpt = ''): PostResult => ({
    ok: false,
    status,
    latencyMs: Math.round(performance.now() - started),
    responseExcerpt,
    error,
  });

  const url = parseWebhookUrl(input.url, input.allowLoopback);
  if (typeof url === 'string') return failed(`invalid address: ${url}`);
  const literal = ipLiteral(url);
  const refused = literal === null ? null : refusedAddress(literal, options);
  if (refused) return failed(`refused: ${refused}`);

  return new Promise<PostResult>((settle) => {
    let done = false;
    let status: number | null = null;
    const chunks: Buffer[] = [];
    let kept = 0;
    const excerpt = () => Buffer.concat(chunks).toString('utf8');
    const finish = (result: PostResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      request.destroy();
      settle(result);
    };
    const answered = () => {
      const latencyMs = Math.round(performance.now() - started);
      const ok = status !== null && status >= 200 && status <= 299;
      const redirect = status !== null && status >= 300 && status <= 399;
      finish({ ok, status, latencyMs, responseExcerpt: excerpt(), error: redirect ? 'redirect not followed' : null });
    };

    let request: http.ClientRequest;
    try {
      request = (url.protocol === 'https:' ? https : http).request(url, {
        method: 'POST',
        agent: false, // a connection of its own, closed after: never a pooled socket to an address judged earlier
        lookup: safeLookup(input.resolve ?? systemResolver, options),
        headers: {
          ...input.headers,
          'User-Agent': 'Fieldwork-Webhooks/1',
          'Content-Type': 'application/json',
          'Content-Length': String(Buffer.byteLength(input.body)),
        },
      });
    } catch (error) {
      // A header no request may carry (a line break in a value…): the caller's mistake, reported as the rest.
      settle(failed(errorText(error)));
      return;
    }
    const timer = setTimeout(() => finish(failed('timed out', status, excerpt())), timeoutMs);
    request.on('error', (error) => finish(failed(errorText(error), status, excerpt())));
    request.on('response', (response) => {
      status = response.statusCode ?? null;
      response.on('data', (chunk: Buffer) => {
        if (done) return;
        const room = maxResponseBytes - kept;
        if (chunk.length >= room) {
          chunks.push(chunk.subarray(0, room));
          kept += room;
          answered(); // enough: the rest is not read (finish destroys the socket)
          return;
        }
        chunks.push(chunk);
        kept += chunk.length;
      });
      response.on('end', answered);
      response.on('error', (error) => finish(failed(errorText(error), status, excerpt())));
      response.on('aborted', () => finish(failed('connection reset', status, excerpt())));
    });
    request.end(input.body);
  });
}
