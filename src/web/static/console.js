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
