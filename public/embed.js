/*! VetDx embed kit: frames the diagnostics component and relays its events.
 *
 *   <div id="vetdx"></div>
 *   <script src="https://vetdx.example/embed.js"></script>
 *   <script>
 *     VetDx.embed({
 *       url: sessionUrl,                  // `url` from POST /v1/sessions (made by your backend)
 *       container: "#vetdx",              // element or selector
 *       onEvent: function (event) {       // {type, payload}: init, symptomSelected,
 *         console.log(event.type, event.payload); // diagnoseSelected, save, soapNotesGenerated, resize
 *       },
 *     });
 *   </script>
 *
 * Only messages from the component's own frame and origin (the origin of `url`) are accepted;
 * everything else is ignored. `resize` events set the frame's height to the content's.
 */
(function (global) {
  "use strict";

  function resolveContainer(container) {
    var element = typeof container === "string" ? document.querySelector(container) : container;
    if (!element || typeof element.appendChild !== "function") {
      throw new Error("VetDx.embed: container must be an element or a selector that matches one");
    }
    return element;
  }

  function embed(options) {
    if (!options || !options.url) throw new Error("VetDx.embed: url is required");
    var url = new URL(options.url, global.location.href);
    if (url.protocol !== "https:" && url.protocol !== "http:")
      throw new Error("VetDx.embed: url must be http(s)");
    var componentsOrigin = url.origin;
    var container = resolveContainer(options.container);
    var onEvent = typeof options.onEvent === "function" ? options.onEvent : function () {};

    var iframe = document.createElement("iframe");
    iframe.src = url.href;
    iframe.title = options.title || "VetDx diagnostics";
    // The component picks the origin to post to from the referrer: send the origin, never the path.
    iframe.referrerPolicy = "origin";
    iframe.style.width = "100%";
    iframe.style.border = "0";
    iframe.style.display = "block";
    iframe.style.height = (options.initialHeight || 640) + "px";

    function onMessage(event) {
      if (event.origin !== componentsOrigin || event.source !== iframe.contentWindow) return;
      if (typeof event.data !== "string") return;
      var message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (!message || typeof message.type !== "string") return;
      var payload = message.payload && typeof message.payload === "object" ? message.payload : {};
      if (message.type === "resize" && typeof payload.height === "number" && payload.height > 0) {
        iframe.style.height = Math.ceil(payload.height) + "px";
      }
      try {
        onEvent({ type: message.type, payload: payload });
      } catch (error) {
        setTimeout(function () {
          throw error;
        });
      }
    }

    global.addEventListener("message", onMessage);
    container.appendChild(iframe);

    return {
      iframe: iframe,
      destroy: function () {
        global.removeEventListener("message", onMessage);
        if (iframe.parentNode) iframe.parentNode.removeChild(iframe);
      },
    };
  }

  global.VetDx = Object.assign(global.VetDx || {}, { embed: embed });
})(window);
