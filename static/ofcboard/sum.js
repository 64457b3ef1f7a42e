// The fix page's running sum: what the typed totals add up to, said as they are typed
// ("3 points too many"), and checked before the fix is sent (the server checks again,
// and its word is the one that counts). The page works the same without this file.
(function () {
  "use strict";

  const line = document.querySelector("[data-fix-sum]");
  if (!line) return;
  const form = line.closest("form");
  const fields = () => [...form.querySelectorAll("input.points")];

  function total() {
    let sum = 0;
    let complete = true;
    for (const field of fields()) {
      const value = field.value.trim().replace(/^−/, "-").replace(/^\+/, "");
      if (!/^-?\d+$/.test(value)) { complete = false; continue; }
      sum += Number(value);
    }
    return { sum, complete };
  }

  function words(sum) {
    if (sum === 0) return line.dataset.zero;
    const count = Math.abs(sum);
    const kind = sum > 0 ? "many" : "few";
    const text = count === 1 ? line.dataset[`${kind}One`] : line.dataset[`${kind}Other`];
    const said = text.replace("{count}", String(count));
    return said.charAt(0).toUpperCase() + said.slice(1);
  }

  function update() {
    const { sum } = total();
    line.textContent = words(sum);
    line.classList.toggle("bad", sum !== 0);
  }

  form.addEventListener("input", update);
  // The +/− button changes a value without an input event.
  form.addEventListener("click", (event) => {
    if (event.target.closest("[data-flip-sign]")) setTimeout(update, 0);
  });
  form.addEventListener("submit", (event) => {
    const { sum, complete } = total();
    if (!complete || sum === 0) return; // a total that is not a number: the server says why
    event.preventDefault();
    let note = form.querySelector(".sum-error");
    if (!note) {
      note = document.createElement("p");
      note.className = "error sum-error";
      note.setAttribute("role", "alert");
      line.after(note);
    }
    note.textContent = words(sum);
  });
  update();
})();
