// lineage HTML report: sorting and filtering on index.html; folds, anchors and region
// navigation on file pages. No network, no inline handlers (the pages' CSP forbids both).
"use strict";
(function () {
  function indexPage() {
    const table = document.getElementById("files");
    const body = table.tBodies[0];
    const rows = Array.from(body.rows);
    const heads = Array.from(table.tHead.rows[0].cells);
    const q = document.getElementById("q"), marker = document.getElementById("marker"),
      minShare = document.getElementById("minshare"), count = document.getElementById("count");
    // Each row's values once: text for search, numbers for sorting.
    const data = rows.map(function (tr) {
      const cells = Array.from(tr.cells);
      return {
        tr: tr,
        text: cells.map(function (c) { return c.textContent; }),
        num: cells.map(function (c) { return c.dataset.v === undefined ? NaN : Number(c.dataset.v); }),
      };
    });
    const byText = new Intl.Collator(undefined, { numeric: true });
    let order = data.slice();
    function sortBy(col, dir) {
      const numeric = heads[col].dataset.type === "num";
      order = data.slice().sort(function (a, b) {
        const d = numeric ? a.num[col] - b.num[col] : byText.compare(a.text[col], b.text[col]);
        return (d || byText.compare(a.text[0], b.text[0])) * dir;
      });
      heads.forEach(function (h, k) {
        if (k === col) h.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
        else h.removeAttribute("aria-sort");
      });
      const frag = document.createDocumentFragment();
      order.forEach(function (d) { frag.appendChild(d.tr); });
      body.appendChild(frag);
    }
    heads.forEach(function (h, col) {
      h.tabIndex = 0;
      function go() {
        const now = h.getAttribute("aria-sort");
        // numbers sort largest first on the first click, text A to Z
        const first = h.dataset.type === "num" ? -1 : 1;
        sortBy(col, now === "ascending" ? -1 : now === "descending" ? 1 : first);
      }
      h.addEventListener("click", go);
      h.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
    });
    function filter() {
      const words = q.value.toLowerCase().split(/\s+/).filter(Boolean);
      const want = marker.value, least = (Number(minShare.value) || 0) / 100;
      let shown = 0;
      data.forEach(function (d) {
        const hay = (d.text[0] + " " + d.text[5] + " " + d.text[6]).toLowerCase();
        const ok = words.every(function (w) { return hay.indexOf(w) >= 0; }) &&
          (want === "" || (want === "yes") === (d.text[6] !== "")) &&
          d.num[4] + 1e-9 >= least;
        d.tr.hidden = !ok;
        if (ok) shown++;
      });
      count.textContent = shown.toLocaleString("en") + " of " + data.length.toLocaleString("en") + " files shown";
    }
    // index.html#q=TEXT opens the index searching for TEXT (region headings link so).
    const asked = /^#q=(.*)$/.exec(location.hash);
    if (asked) q.value = decodeURIComponent(asked[1]);
    [q, marker, minShare].forEach(function (el) { el.addEventListener("input", filter); });
    q.form.addEventListener("submit", function (e) { e.preventDefault(); });
    filter();
  }

  function filePage() {
    const header = document.querySelector("header.bar");
    function headHeight() {
      const h = header.getBoundingClientRect().height + 8;
      document.documentElement.style.setProperty("--head", h + "px");
      return h;
    }
    // A folded stretch holds its lines deflated and base64-encoded (data-z), numbered from data-a;
    // unfolding builds their rows, as text: nothing in them is ever parsed as HTML.
    async function inflate(b64) {
      const bytes = Uint8Array.from(atob(b64), function (c) { return c.charCodeAt(0); });
      const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
      return new Response(stream).text();
    }
    async function unfold(tbody) {
      if (tbody.dataset.z !== undefined) {
        const first = Number(tbody.dataset.a);
        const lines = (await inflate(tbody.dataset.z)).split("\n");
        delete tbody.dataset.z;
        const frag = document.createDocumentFragment();
        lines.forEach(function (text, k) {
          const tr = document.createElement("tr");
          tr.id = "L" + (first + k);
          tr.insertCell().textContent = String(first + k);
          tr.insertCell().textContent = text;
          frag.appendChild(tr);
        });
        tbody.appendChild(frag);
      }
      tbody.classList.add("open");
      const bar = tbody.previousElementSibling;
      if (bar && bar.classList.contains("bar")) bar.classList.add("open");
    }
    function foldHolding(id) {
      const m = /^L(\d+)$/.exec(id);
      if (!m) return null;
      const n = Number(m[1]);
      return Array.from(document.querySelectorAll("tbody.folded")).find(function (t) {
        return t.dataset.z !== undefined && Number(t.dataset.a) <= n && n < Number(t.dataset.a) + Number(t.dataset.n);
      }) || null;
    }
    document.querySelectorAll("tbody.bar button").forEach(function (b) {
      b.addEventListener("click", function () { unfold(document.getElementById(b.dataset.fold)); });
    });
    document.getElementById("unfold").addEventListener("click", function () {
      document.querySelectorAll("tbody.folded").forEach(unfold);
    });
    async function show(id, smooth) {
      if (!id) return;
      let el = document.getElementById(id);
      if (!el) {
        const fold = foldHolding(id);
        if (fold) await unfold(fold);
        el = document.getElementById(id);
      }
      if (!el) return;
      const folded = el.closest("tbody.folded");
      if (folded) await unfold(folded);
      headHeight();
      el.scrollIntoView({ block: "start", behavior: smooth ? "smooth" : "auto" });
    }
    function fromHash() { show(decodeURIComponent(location.hash.slice(1)), false); }
    window.addEventListener("hashchange", fromHash);
    // Line numbers link to their line.
    document.querySelector("table.sbs").addEventListener("click", function (e) {
      const td = e.target.closest("td");
      if (td && td.cellIndex === 0 && td.parentElement.id) location.hash = td.parentElement.id;
    });
    const heads = Array.from(document.querySelectorAll("tr.rh"));
    // The region headings below / above the one at the top of the view (where scrolling to a
    // heading puts it: the header's height, see --head).
    function step(dir) {
      if (!heads.length) return;
      const line = headHeight();
      const current = location.hash.slice(1);
      let target = null;
      if (dir > 0) {
        target = heads.find(function (h) { return h.getBoundingClientRect().top > line + 2 && h.id !== current; });
      } else {
        target = heads.slice().reverse().find(function (h) { return h.getBoundingClientRect().top < line - 2; });
      }
      if (target) location.hash = target.id;
    }
    document.getElementById("next").addEventListener("click", function () { step(1); });
    document.getElementById("prev").addEventListener("click", function () { step(-1); });
    document.addEventListener("keydown", function (e) {
      if (e.target.closest("input,select,textarea") || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === "n" || e.key === "j") step(1);
      else if (e.key === "p" || e.key === "k") step(-1);
    });
    headHeight();
    if (location.hash) fromHash();
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (document.body.classList.contains("index")) indexPage();
    else if (document.body.classList.contains("file")) filePage();
  });
})();
