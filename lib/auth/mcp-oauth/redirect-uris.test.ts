// Which redirect URIs a client may register, and how requested ones match registered ones.
import { describe, expect, it } from "vitest";
import { matchRedirectUri, redirectUriProblem } from "./redirect-uris";

describe("redirectUriProblem", () => {
  it.each([
    "https://claude.ai/api/mcp/auth_callback",
    "http://127.0.0.1:33418/callback",
    "http://localhost/cb",
    "http://[::1]:8080/cb",
    "com.example.app:/oauth2redirect",
    "cursor://anysphere.cursor-retrieval/oauth/callback",
  ])("accepts %s", (uri) => {
    expect(redirectUriProblem(uri)).toBeUndefined();
  });

  it.each([
    ["http://client.example/cb", /https/],
    ["http://192.168.1.10/cb", /https/],
    ["javascript:alert(1)", /javascript/],
    ["JavaScript:alert(1)", /javascript/],
    ["data:text/html,hi", /data/],
    ["file:///etc/passwd", /file/],
    ["vbscript:msgbox", /vbscript/],
    ["https://client.example/cb#frag", /fragment/],
    ["https://client.example/cb#", /fragment/],
    ["https://user:pw@client.example/cb", /credentials/],
    ["/relative/cb", /absolute/],
    ["", /absolute/],
  ])("refuses %s", (uri, reason) => {
    expect(redirectUriProblem(uri)).toMatch(reason);
  });
});

describe("matchRedirectUri", () => {
  const registered = ["https://client.example/cb", "http://127.0.0.1/callback"];

  it("matches exactly", () => {
    expect(matchRedirectUri("https://client.example/cb", registered)).toBe("https://client.example/cb");
  });

  it.each([
    "https://client.example/cb/",
    "https://client.example/other",
    "https://evil.example/cb",
    "http://client.example/cb",
    "https://client.example/cb?x=1",
    "https://client.example:8443/cb",
    "https://CLIENT.example/cb",
  ])("does not match the near miss %s", (uri) => {
    expect(matchRedirectUri(uri, registered)).toBeUndefined();
  });

  it("matches a loopback redirect on any port, but nothing else about it may differ", () => {
    expect(matchRedirectUri("http://127.0.0.1:49152/callback", registered)).toBe("http://127.0.0.1/callback");
    expect(matchRedirectUri("http://127.0.0.1:49152/callback/", registered)).toBeUndefined();
    expect(matchRedirectUri("http://localhost:49152/callback", registered)).toBeUndefined();
    expect(matchRedirectUri("http://127.0.0.1:49152/other", registered)).toBeUndefined();
  });
});
