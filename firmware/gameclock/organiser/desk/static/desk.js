// gameclock desk: live areas and the projector's rotation; no framework, nothing from outside.
"use strict";
(function () {
  // One fetch of an area at a time: a change told while its fetch is in flight is fetched once that
  // one ends (however many came meanwhile), so a slow phone never queues a fetch per result. The
  // desk serves the same bytes to every page until the store changes (ETag): "no-cache" lets the
  // browser keep them and ask with If-None-Match, and a 304 costs no body.
  // `ifChanged`: only when the area's bytes changed since those it holds (its data-etag: the desk's
  // ETag of a shared public fragment, as the page came or as last fetched); an area without one is
  // left as it is.
  function refresh(area, ifChanged) {
    var src = area.getAttribute("data-src");
    if (!src) return;
    var etag = area.getAttribute("data-etag");
    if (ifChanged && !etag) return;
    if (area.deskFetching) { area.deskAgain = true; return; }
    area.deskFetching = true;
    area.deskAgain = false;
    var ask = { credentials: "same-origin", cache: "no-cache" };
    if (ifChanged) ask = { credentials: "same-origin", cache: "no-store", headers: { "If-None-Match": etag } };
    fetch(src, ask).then(function (r) {
      if (r.status === 304) return null;   // unchanged: the area stays as it is
      // a redirect is the login page (the organiser's session ended): never put it inside the table
      if (r.ok && !r.redirected) {
        if (r.headers.get("etag")) area.setAttribute("data-etag", r.headers.get("etag"));
        return r.text();
      }
      throw new Error(r.status);
    }).then(function (html) {
      if (html === null) return;
      if (area.deskHtml !== html) {   // the same bytes again (a 304): nothing to lay out
        area.deskHtml = html;
        area.innerHTML = html;   // rendered and escaped by the server's templates
      }
      area.setAttribute("data-updated", String(Date.now()));
      area.dispatchEvent(new CustomEvent("desk:updated", { bubbles: true }));
    }).catch(function () {}).then(function () {
      area.deskFetching = false;
      if (area.deskAgain) refresh(area);
    });
  }
  // A live area names the stream's events that change it (data-on): a result stored sends `result`
  // and `standings`, and each area is fetched again once, not once for each.
  function refreshFor(kind) {
    document.querySelectorAll("[data-live]").forEach(function (area) {
      var on = (area.getAttribute("data-on") || "").split(" ");
      if (on.indexOf(kind) >= 0) refresh(area);
    });
  }

  // The projector: one panel at a time (standings, pairings, latest results), each for the rotation's
  // interval. A panel taller than the screen is shown page by page: as many rows as fit the screen's
  // height, each page for the interval, "page 2/4" in the corner; the screen never scrolls and no row
  // is cut. Pages are worked out by laying the rows out on the screen itself (the browser measures
  // them at the projector's real size and type), again whenever a live update or a resize changes them.
  var OFF = "pg-off";
  function overflows() {
    var root = document.scrollingElement || document.documentElement;
    return root.scrollHeight > window.innerHeight;
  }
  function units(panel) {   // what a page is made of: table rows and notes
    return Array.prototype.slice.call(panel.querySelectorAll("tbody > tr, ul.notes > li"));
  }
  function holder(unit) {   // the table (or the notes' list) a unit is in, hidden when none of its units is shown
    return unit.closest("table, ul");
  }
  function showOnly(panel, list, from, to) {
    var shown = new Set();
    list.forEach(function (u, i) {
      var on = i >= from && i < to;
      u.classList.toggle(OFF, !on);
      if (on) shown.add(holder(u));
    });
    panel.querySelectorAll("table, ul.notes").forEach(function (h) {
      h.classList.toggle(OFF, !shown.has(h) && h.querySelector("tbody > tr, li") !== null);
    });
  }
  function paginate(panel) {   // [[from, to), ...]: the rows of each page (at least one a page)
    // Each row's height is measured once (all rows laid out together), a page's rows are guessed from
    // them, and the guess is checked and corrected on the screen: two or three layouts a page, not
    // one a row (a 500-player table laid out row by row held the projector's live updates back).
    var list = units(panel), pages = [], start = 0;
    if (!list.length) return [[0, 0]];
    showOnly(panel, list, 0, list.length);
    var heights = list.map(function (u) { return u.getBoundingClientRect().height; });
    // a live update that changed the rows' text but not their number or heights (a result moving the
    // standings) keeps the pages: nothing more to lay out
    // (and where the first row starts: the projector's head above the panel grows with an announcement)
    var key = window.innerHeight + ":" + list[0].getBoundingClientRect().top + ":" + heights.join(",");
    if (panel.pagesKey === key) return panel.pages;
    while (start < list.length) {
      showOnly(panel, list, start, start + 1);
      var room = window.innerHeight - list[start].getBoundingClientRect().bottom - 8;
      var end = start + 1;
      while (end < list.length && heights[end] <= room) { room -= heights[end]; end += 1; }
      showOnly(panel, list, start, end);
      while (end > start + 1 && overflows()) { end -= 1; showOnly(panel, list, start, end); }
      while (end < list.length) {
        showOnly(panel, list, start, end + 1);
        if (overflows()) break;
        end += 1;
      }
      pages.push([start, end]);
      start = end;
    }
    panel.pagesKey = key;
    panel.pages = pages;
    return pages;
  }
  function rotate(box) {
    var panels = Array.prototype.slice.call(box.querySelectorAll("[data-panel]"));
    if (!panels.length) return;
    var every = parseInt(box.getAttribute("data-rotate"), 10) || 12;
    var corner = box.querySelector("[data-page-no]");
    var label = corner ? corner.getAttribute("data-page-no") : "";
    var state = { panel: 0, page: 0, pages: [[0, 0]] };
    function draw() {
      var panel = panels[state.panel], n = state.pages.length;
      if (state.page >= n) state.page = n - 1;
      var range = state.pages[state.page];
      showOnly(panel, units(panel), range[0], range[1]);
      box.setAttribute("data-page", String(state.page + 1));
      box.setAttribute("data-pages", String(n));
      if (corner) {
        corner.textContent = n > 1 ? label + " " + (state.page + 1) + "/" + n : "";
        corner.classList.toggle(OFF, n < 2);
      }
    }
    function layout() {   // the shown panel's pages again (its rows or the screen changed)
      var panel = panels[state.panel];
      panels.forEach(function (p, j) { p.classList.toggle("shown", j === state.panel); });
      box.setAttribute("data-showing", panel.getAttribute("data-testid") || String(state.panel));
      state.pages = paginate(panel);
      draw();
    }
    function next() {
      if (state.page + 1 < state.pages.length) {
        state.page += 1;
        draw();
      } else {
        state.panel = (state.panel + 1) % panels.length;
        state.page = 0;
        layout();
      }
    }
    layout();
    setInterval(next, every * 1000);
    box.addEventListener("desk:updated", function (e) {
      // the head (an announcement added or removed) changes the room the tables have: their pages again
      if (panels[state.panel].contains(e.target) || e.target.hasAttribute("data-wall-head")) layout();
    });
    var resized = null;
    window.addEventListener("resize", function () {
      clearTimeout(resized);
      resized = setTimeout(layout, 150);
    });
  }
  // The projector's head (issue 28): the time of day and the round clock count on by themselves between
  // the head's fetches, from the desk's time as the head was rendered (data-now-ms), not the projector
  // PC's own clock; the time of day in the desk's zone (data-offset-min).
  function two(n) { return (n < 10 ? "0" : "") + n; }
  function wallClock(head) {
    var fetched = performance.now();
    head.addEventListener("desk:updated", function () { fetched = performance.now(); });
    function tick() {
      var since = performance.now() - fetched;
      var now = head.querySelector("[data-testid=wall-time]");
      if (now) {
        var at = new Date(parseInt(now.getAttribute("data-now-ms"), 10) + since +
                          60000 * parseInt(now.getAttribute("data-offset-min"), 10));
        now.textContent = two(at.getUTCHours()) + ":" + two(at.getUTCMinutes());
      }
      var clock = head.querySelector("[data-round-clock]");
      if (clock) {
        var s = Math.max(0, Math.floor((parseInt(clock.getAttribute("data-now-ms"), 10) + since -
                                        parseInt(clock.getAttribute("data-started-ms"), 10)) / 1000));
        clock.textContent = Math.floor(s / 3600) + ":" + two(Math.floor(s / 60) % 60) + ":" + two(s % 60);
      }
    }
    setInterval(tick, 1000);
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-wall-head]").forEach(wallClock);
    var event = document.body.getAttribute("data-event");
    var live = document.querySelectorAll("[data-live]");
    document.querySelectorAll("[data-rotate]").forEach(rotate);
    document.querySelectorAll("[data-print]").forEach(function (b) {   // the prize list's Print
      b.addEventListener("click", function () { window.print(); });
    });
    // a file chooser of the page's own (the browser's says "Choose File" in the browser's language): the name chosen
    document.querySelectorAll("input[type=file][data-chosen]").forEach(function (input) {
      input.addEventListener("change", function () {
        var shown = document.getElementById(input.getAttribute("data-chosen"));
        if (shown && input.files && input.files.length) shown.textContent = input.files[0].name;
      });
    });
    live.forEach(function (a) { if (!a.innerHTML.trim()) refresh(a); });
    if (!event || !live.length || !window.EventSource) return;
    var dot = document.querySelector(".live-dot");
    var source = null;
    // A stream tells only what changes from its hello on. A stream ends after a few minutes (or the
    // hall's Wi-Fi drops) and the browser opens a new one: on every hello but the first, every live
    // area is fetched again, so a result stored in between is never missed. At the first, the areas
    // with an ETag (the public fragments) are asked whether they changed since the page came (a
    // result stored between the page and its stream; issue 28): a 304 of a few bytes when not, and
    // the area is left as it is (an admin page's areas, without one, are not touched: a button the
    // organiser is about to press is not replaced under the pointer).
    var hellos = 0;
    function open() {
      source = new EventSource("/e/" + encodeURIComponent(event) + "/stream");
      source.addEventListener("hello", function () {
        if (dot) dot.classList.add("on");
        hellos += 1;
        live.forEach(function (a) { refresh(a, hellos === 1); });
      });
      source.onerror = function () { if (dot) dot.classList.remove("on"); };
      ["standings", "pairings", "clocks", "result", "amendment", "wall"].forEach(function (kind) {
        source.addEventListener(kind, function () {
          document.body.setAttribute("data-last-event", kind);
          refreshFor(kind);
        });
      });
    }
    open();
    // A page left for another may be kept, frozen, for the Back button (the back-forward cache): its
    // stream is closed then (else it holds one of the address's places at the desk, and a poll, for
    // nobody), and a new one opened when the page is shown again -- its hello fetches every live area.
    window.addEventListener("pagehide", function () {
      if (source) source.close();
      source = null;
      if (dot) dot.classList.remove("on");
    });
    window.addEventListener("pageshow", function (e) {
      if (e.persisted && !source) open();
    });
  });
})();
