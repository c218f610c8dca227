"use client";
// The diagnostics component in an iframe for editing the case: sized to its content from its
// `resize` events; when the vet changes something there, the page's own data (differentials, SOAP
// notes) is refreshed. Only messages from the component's frame and origin are read.
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";

const REFRESH_ON = new Set(["symptomSelected", "diagnoseSelected", "save", "soapNotesGenerated"]);

export function EmbeddedDiagnostics({ url }: { url: string }) {
  const router = useRouter();
  const frame = useRef<HTMLIFrameElement>(null);
  // Fixed on first render: refreshing the page must not reload the frame with a new session.
  const [src] = useState(url);
  const [height, setHeight] = useState(720);

  useEffect(() => {
    const origin = new URL(src).origin;
    let refresh: ReturnType<typeof setTimeout> | undefined;
    function onMessage(event: MessageEvent) {
      if (event.origin !== origin || event.source !== frame.current?.contentWindow) return;
      if (typeof event.data !== "string") return;
      let message: { type?: unknown; payload?: { height?: unknown } };
      try {
        message = JSON.parse(event.data) as typeof message;
      } catch {
        return;
      }
      if (
        message.type === "resize" &&
        typeof message.payload?.height === "number" &&
        message.payload.height > 0
      ) {
        setHeight(Math.ceil(message.payload.height));
      } else if (typeof message.type === "string" && REFRESH_ON.has(message.type)) {
        clearTimeout(refresh);
        refresh = setTimeout(() => router.refresh(), 300);
      }
    }
    window.addEventListener("message", onMessage);
    return () => {
      window.removeEventListener("message", onMessage);
      clearTimeout(refresh);
    };
  }, [src, router]);

  return (
    <iframe
      ref={frame}
      src={src}
      title="Diagnostics editor"
      className="diagnostics-frame"
      referrerPolicy="origin"
      style={{ height }}
    />
  );
}
