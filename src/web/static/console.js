// Progressive enhancement only: every page works without this file.
// A "select all" box (data-select-all="NAME") ticks every checkbox named NAME in its form.
document.addEventListener("change", (event) => {
  const box = event.target;
  if (!(box instanceof HTMLInputElement) || !box.dataset.selectAll) return;
  const form = box.form ?? document;
  for (const other of form.querySelectorAll(`input[type=checkbox][name="${box.dataset.selectAll}"]`)) {
    other.checked = box.checked;
  }
});
// The business search box opens /businesses/{tax id} directly.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || form.getAttribute("action") !== "/businesses") return;
  const value = new FormData(form).get("tax_id");
  if (typeof value !== "string" || value.trim() === "") return;
  event.preventDefault();
  window.location.assign(`/businesses/${encodeURIComponent(value.trim())}`);
});
// Narrow screens show each table row as a card (console.css): each cell is given its column's
// header as data-label, which the card shows before it, and the table its ARIA roles, which a
// browser may drop once a table is no longer displayed as a table: screen readers keep the headers.
for (const table of document.querySelectorAll("main table:not(.calendar, .preview)")) {
  const headers = [];
  for (const th of table.tHead?.rows[0]?.cells ?? []) {
    // A header only screen readers hear (a checkbox column's) labels no card.
    const shown = th.querySelector(".visually-hidden") ? "" : th.textContent.trim();
    for (let span = 0; span < th.colSpan; span++) headers.push(shown);
  }
  table.setAttribute("role", "table");
  for (const group of table.querySelectorAll(":scope > thead, :scope > tbody, :scope > tfoot")) {
    group.setAttribute("role", "rowgroup");
  }
  for (const row of table.rows) {
    row.setAttribute("role", "row");
    let column = 0;
    for (const cell of row.cells) {
      if (cell.tagName === "TH") {
        cell.setAttribute("role", row.parentElement === table.tHead ? "columnheader" : "rowheader");
      } else {
        cell.setAttribute("role", "cell");
        // An empty cell (no one assigned, say) shows no name above nothing.
        const filled = cell.textContent.trim() !== "" || cell.querySelector("input, select, button");
        if (headers[column] && filled) cell.dataset.label = headers[column];
      }
      column += cell.colSpan;
    }
  }
}
