// The book's only script: the index's filters and pages, and each prompt's copy control.
// Everything shows without it (every row, every link); it fetches nothing.
"use strict";
(function () {
  var PAGE = 100;
  var rows = Array.prototype.slice.call(document.querySelectorAll("#prompts tbody tr"));
  var role = document.getElementById("f-role");
  var input = document.getElementById("f-input");
  var count = document.getElementById("f-count");
  var pager = document.getElementById("pager");
  var page = 0;
  function members(row) {
    return row.getAttribute("data-members").split("\n").map(function (m) { return m.split("\t"); });
  }
  function matches(row) {
    var r = role ? role.value : "", i = input ? input.value : "";
    return members(row).some(function (m) {
      return (r === "" || m[0] === r) && (i === "" || m.indexOf(i, 1) > 0);
    });
  }
  function show() {
    var shown = rows.filter(matches);
    var pages = Math.max(1, Math.ceil(shown.length / PAGE));
    page = Math.min(page, pages - 1);
    rows.forEach(function (row) { row.hidden = true; });
    shown.slice(page * PAGE, page * PAGE + PAGE).forEach(function (row) { row.hidden = false; });
    count.textContent = shown.length + " of " + rows.length + " distinct prompts";
    pager.textContent = "";
    if (pages > 1) {
      var prev = document.createElement("button"), next = document.createElement("button");
      prev.textContent = "previous"; next.textContent = "next";
      prev.disabled = page === 0; next.disabled = page === pages - 1;
      prev.onclick = function () { page -= 1; show(); };
      next.onclick = function () { page += 1; show(); };
      pager.appendChild(prev); pager.appendChild(next);
      pager.appendChild(document.createTextNode("page " + (page + 1) + " of " + pages));
    }
  }
  [role, input].forEach(function (s) { if (s) { s.onchange = function () { page = 0; show(); }; } });
  show();
  // Copies the prompt's exact bytes from its JSON string (a page's text cannot hold NUL).
  document.addEventListener("click", function (e) {
    var button = e.target.closest ? e.target.closest("button.copy") : null;
    if (!button) { return; }
    var text = JSON.parse(document.getElementById(button.getAttribute("data-copy")).textContent);
    var said = button.parentNode.querySelector(".copied");
    function done(ok) { said.textContent = ok ? "copied " + text.length + " characters" : "copy refused by the browser"; }
    var copied = false;
    function onCopy(ev) { ev.clipboardData.setData("text/plain", text); ev.preventDefault(); copied = true; }
    document.addEventListener("copy", onCopy);
    try { document.execCommand("copy"); } catch (err) { copied = false; }
    document.removeEventListener("copy", onCopy);
    if (copied) { done(true); return; }
    if (navigator.clipboard) {
      navigator.clipboard.writeText(text).then(function () { done(true); }, function () { done(false); });
    } else { done(false); }
  });
})();
