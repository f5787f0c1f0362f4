// The chip-custody pages (templates/desk/custody/): a count form's live totals, and a slip's
// print dialog. Without this file the pages still work: the totals are the server's, as
// typed when the form was last sent.
//
// A count form is marked data-counts, with data-money-prefix ("$") and data-money-exponent
// (2); each group of rows is a [data-group], each row's input carries its denomination in
// minor units (data-value) and its amount is written to the row's output[data-line]; a
// group's total goes to its output[data-total="group"], the form's to output[data-total="all"].
// A closer's form also carries data-expected and data-report (minor units): its
// [data-variance] says how far the count is from the expected tray.
(() => {
  "use strict";

  const EMPTY = "–";

  function formatter(root) {
    const prefix = root.dataset.moneyPrefix || "";
    const exponent = Number(root.dataset.moneyExponent || 2);
    const digits = new Intl.NumberFormat("en-US", {
      minimumFractionDigits: exponent,
      maximumFractionDigits: exponent,
    });
    return (minor) => {
      if (!Number.isFinite(minor)) return EMPTY;
      const sign = minor < 0 ? "−" : "";
      return sign + prefix + digits.format(Math.abs(minor) / 10 ** exponent);
    };
  }

  // A count as typed: blank is none, else a whole number (at most 7 digits); NaN otherwise.
  function countOf(input) {
    const text = input.value.replace(/[\s,]/g, "");
    if (text === "") return 0;
    return /^[0-9]+$/.test(text) && text.replace(/^0+/, "").length <= 7 ? Number(text) : NaN;
  }

  function update(root, money) {
    let all = 0;
    for (const group of root.querySelectorAll("[data-group]")) {
      let sum = 0;
      for (const input of group.querySelectorAll("input[data-value]")) {
        const amount = countOf(input) * Number(input.dataset.value);
        const line = input.parentElement.querySelector("[data-line]");
        if (line) line.textContent = amount === 0 ? "" : money(amount);
        sum += amount;
      }
      const total = group.querySelector('[data-total="group"]');
      if (total) total.textContent = money(sum);
      all += sum;
    }
    const total = root.querySelector('[data-total="all"]');
    if (total) total.textContent = money(all);
    const variance = root.querySelector("[data-variance]");
    if (variance && root.dataset.expected !== undefined) {
      const expected = Number(root.dataset.expected);
      const report = Number(root.dataset.report || 0);
      const off = all - expected;
      let words;
      if (!Number.isFinite(off) || all === 0) words = "";
      else if (off === 0) words = `: exactly the expected ${money(expected)}`;
      else {
        const side = off < 0 ? "short of" : "over";
        words = `: ${money(Math.abs(off))} ${side} the expected ${money(expected)}`;
        if (Math.abs(off) > report) words += ` (above ${money(report)}: say why below)`;
      }
      variance.textContent = words;
    }
  }

  for (const root of document.querySelectorAll("[data-counts]")) {
    const money = formatter(root);
    root.addEventListener("input", () => update(root, money));
    update(root, money);
  }

  // A copy just recorded opens the print dialog once (a reload of the page does not print
  // an unrecorded copy again); its button opens the dialog again.
  for (const button of document.querySelectorAll("[data-print]")) {
    button.addEventListener("click", () => window.print());
  }
  const copy = document.querySelector("[data-autoprint]");
  if (copy) {
    const key = `slip-printed-${copy.dataset.autoprint}`;
    let seen = false;
    try {
      seen = sessionStorage.getItem(key) === "1";
      sessionStorage.setItem(key, "1");
    } catch {
      seen = false;
    }
    if (!seen) window.addEventListener("load", () => window.print());
  }
})();
