// The SSRF guard of client ID metadata document fetches: which addresses count as public.
import { describe, expect, it } from "vitest";
import { isPublicIpAddress } from "./public-address";
import { createVettedLookup, fetchPublicDocument, UnsafeFetchError } from "./safe-fetch";

describe("isPublicIpAddress", () => {
  it.each([
    "10.0.0.1",
    "127.0.0.1",
    "169.254.169.254",
    "172.16.5.4",
    "192.168.1.1",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "::1",
    "::",
    "fd00::1",
    "fc00::1",
    "fe80::1",
    "ff02::1",
    "::ffff:10.0.0.1",
    "::ffff:127.0.0.1",
    "::ffff:a9fe:a9fe",
    "64:ff9b::192.168.0.1",
    "2002:0a00:0001::1",
    "2001:db8::1",
    "fe80::1%eth0",
    "not-an-address",
    "",
  ])("refuses %s", (address) => {
    expect(isPublicIpAddress(address)).toBe(false);
  });

  it.each([
    "93.184.215.14",
    "8.8.8.8",
    "1.1.1.1",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "[2a00:1450:4001::200e]",
  ])("allows %s", (address) => {
    expect(isPublicIpAddress(address)).toBe(true);
  });
});

describe("the vetted DNS lookup and fetcher", () => {
  const lookupWith = (addresses: { address: string; family: number }[], options: { all?: boolean } = {}) =>
    new Promise<{ error: Error | null; result: unknown }>((resolve) =>
      createVettedLookup(async () => addresses)("client.example", options, (error, result) =>
        resolve({ error, result }),
      ),
    );

  it("refuses a name when any answer is private (rebinding-style mixed answers)", async () => {
    const { error } = await lookupWith([
      { address: "93.184.215.14", family: 4 },
      { address: "10.0.0.1", family: 4 },
    ]);
    expect(error).toBeInstanceOf(UnsafeFetchError);
  });

  it("hands net.connect exactly the vetted public addresses", async () => {
    const single = await lookupWith([{ address: "93.184.215.14", family: 4 }]);
    expect(single).toEqual({ error: null, result: "93.184.215.14" });
    const all = await lookupWith([{ address: "2606:4700:4700::1111", family: 6 }], { all: true });
    expect(all.result).toEqual([{ address: "2606:4700:4700::1111", family: 6 }]);
  });

  it("refuses non-https URLs, private IP literals and names resolving to loopback without connecting", async () => {
    await expect(fetchPublicDocument(new URL("http://client.example/meta.json"))).rejects.toThrow(/https/);
    await expect(fetchPublicDocument(new URL("https://169.254.169.254/latest/meta-data"))).rejects.toThrow(
      /non-public/,
    );
    await expect(fetchPublicDocument(new URL("https://[::1]/meta.json"))).rejects.toThrow(/non-public/);
    await expect(
      fetchPublicDocument(new URL("https://client.example/meta.json"), {
        resolve: async () => [{ address: "127.0.0.1", family: 4 }],
      }),
    ).rejects.toThrow(/non-public/);
  });
});
