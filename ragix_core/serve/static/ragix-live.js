// ragix's own script for the page (not vendored). The live view is pushed again as HTML whenever the run
// changes; without this, every push would close the steps a reader had opened. Steps are only ever
// appended, so a <details> keeps its position from one push to the next: the positions the reader opened
// are remembered from the reader's clicks and opened again after each swap.
(function () {
  var opened = {};
  function position(live, details) {
    return Array.prototype.indexOf.call(live.querySelectorAll("details"), details);
  }
  function reopen(live) {
    var details = live.querySelectorAll("details");
    for (var i = 0; i < details.length; i++) {
      if (opened[i] && !details[i].open) details[i].open = true;
    }
  }
  document.addEventListener("DOMContentLoaded", function () {
    var live = document.getElementById("live");
    if (!live) return;
    // The click on a summary (a mouse's or Enter's), not the toggle event: toggle fires a moment later,
    // by which time a push may have swapped the element out and the event no longer reaches #live.
    live.addEventListener("click", function (e) {
      var summary = e.target.closest ? e.target.closest("summary") : null;
      var details = summary ? summary.parentElement : null;
      if (!details || details.tagName !== "DETAILS") return;
      var i = position(live, details);
      if (i >= 0) opened[i] = !details.open;  // the state the click is about to give it
    }, true);
    new MutationObserver(function () { reopen(live); }).observe(live, { childList: true, subtree: true });
  });
})();
