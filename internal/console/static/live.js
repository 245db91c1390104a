// runsvc console: the live text of an active Run and the live counts of
// the Runs list, from server-sent events. Text is put in the page with
// textContent only, never as markup. Every page works without this file.
(function () {
  "use strict";
  if (!window.EventSource) { return; }
  var live = document.getElementById("live");
  if (live) {
    var out = live.querySelector(".live-text");
    var note = live.querySelector(".live-note");
    var text = new EventSource(live.getAttribute("data-src"));
    var turn = null;
    text.addEventListener("text", function (e) {
      var d = JSON.parse(e.data);
      // Pieces of one turn's answer join up; a new turn starts a new line.
      var sep = out.textContent && d.turn !== turn ? "\n" : "";
      turn = d.turn;
      out.textContent += sep + d.text;
      live.setAttribute("data-pieces", String(Number(live.getAttribute("data-pieces") || 0) + 1));
    });
    text.addEventListener("end", function (e) {
      text.close();
      note.textContent = JSON.parse(e.data).message;
      live.setAttribute("data-ended", "true");
    });
  }
  var counts = document.getElementById("counts");
  if (counts) {
    var ev = new EventSource(counts.getAttribute("data-src"));
    ev.addEventListener("counts", function (e) {
      var d = JSON.parse(e.data);
      Object.keys(d).forEach(function (k) {
        var el = counts.querySelector('[data-state="' + k + '"]');
        if (el) { el.textContent = d[k]; }
      });
    });
  }
})();
