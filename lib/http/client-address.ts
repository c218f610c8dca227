// The caller's address, which every per-address limit and access decision uses. server.ts stamps
// it on each request in the internal X-Vetdx-Client-Ip header, overwriting one a client sent; route
// handlers read it back with clientIp() (lib/http/rate-limit.ts). Behind proxies (TRUST_PROXY) it
// is the right-most X-Forwarded-For entry that no trusted proxy added: each proxy appends the address
// it received the request from, so the entries further left are whatever the client wrote.
import type { IncomingMessage } from "node:http";
import proxyAddr from "proxy-addr";
import type { Env, TrustProxy } from "@/lib/env";

export const CLIENT_ADDRESS_HEADER = "x-vetdx-client-ip";

type Trust = (address: string, hop: number) => boolean;
const compiled = new WeakMap<Exclude<TrustProxy, false>, Trust>();

function trustOf(trustProxy: Exclude<TrustProxy, false>): Trust {
  let trust = compiled.get(trustProxy);
  if (!trust) {
    // Hop 0 is the socket's peer, hop 1 the right-most X-Forwarded-For entry, and so on.
    trust =
      "hops" in trustProxy
        ? (_address, hop) => hop < trustProxy.hops
        : proxyAddr.compile(trustProxy.addresses);
    compiled.set(trustProxy, trust);
  }
  return trust;
}

export function clientAddressOf(req: IncomingMessage, env: Pick<Env, "TRUST_PROXY">): string {
  const address = env.TRUST_PROXY ? proxyAddr(req, trustOf(env.TRUST_PROXY)) : req.socket.remoteAddress;
  return address ?? "unknown";
}

/** Sets the internal client-address header on a request and returns the address. */
export function stampClientAddress(req: IncomingMessage, env: Pick<Env, "TRUST_PROXY">): string {
  const address = clientAddressOf(req, env);
  req.headers[CLIENT_ADDRESS_HEADER] = address;
  return address;
}
