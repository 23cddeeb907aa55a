// gameclock desk: live areas and the projector's rotation; no framework, nothing from outside.
"use strict";
(function () {
  function refresh(area) {
    var src = area.getAttribute("data-src");
    if (!src) return;
    fetch(src, { credentials: "same-origin", cache: "no-store" }).then(function (r) {
      if (r.ok) return r.text();
      throw new Error(r.status);
    }).then(function (html) {
      area.innerHTML = html;   // rendered and escaped by the server's templates
      area.setAttribute("data-updated", String(Date.now()));
    }).catch(function () {});
  }
  function refreshAll() {
    document.querySelectorAll("[data-live]").forEach(refresh);
  }
  function rotate(box) {
    var panels = box.querySelectorAll("[data-panel]");
    if (!panels.length) return;
    var every = parseInt(box.getAttribute("data-rotate"), 10) || 12;
    var i = 0;
    function show() {
      panels.forEach(function (p, j) { p.classList.toggle("shown", j === i); });
      box.setAttribute("data-showing", panels[i].getAttribute("data-testid") || String(i));
      i = (i + 1) % panels.length;
    }
    show();
    setInterval(show, every * 1000);
  }
  document.addEventListener("DOMContentLoaded", function () {
    var event = document.body.getAttribute("data-event");
    var live = document.querySelectorAll("[data-live]");
    document.querySelectorAll("[data-rotate]").forEach(rotate);
    live.forEach(function (a) { if (!a.innerHTML.trim()) refresh(a); });
    if (!event || !live.length || !window.EventSource) return;
    var source = new EventSource("/e/" + encodeURIComponent(event) + "/stream");
    var dot = document.querySelector(".live-dot");
    source.addEventListener("hello", function () { if (dot) dot.classList.add("on"); });
    source.onerror = function () { if (dot) dot.classList.remove("on"); };
    ["standings", "pairings", "clocks", "result"].forEach(function (kind) {
      source.addEventListener(kind, function () {
        document.body.setAttribute("data-last-event", kind);
        refreshAll();
      });
    });
  });
})();
