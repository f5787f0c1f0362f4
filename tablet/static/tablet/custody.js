// Chip custody on the dealer's tablet (the custody API, /api/v1/custody/ and
// /api/v1/tables/{id}/custody/): where a property keeps a chip set, a table opens and closes
// through its counted tray. The screen, one tap from the table:
//
// - **the opener** counted by denomination, a row a chip (its colour, its value in the house
//   currency, a count with big − and + buttons, the row's amount), pre-filled with the last
//   closer so a tray that matches is one tap ("Counts match the last closer");
// - **the closer** counted the same way against the expected tray, the variance live as the
//   dealer types; beyond the chip set's report line the reason field appears, and the
//   server's refusal is shown at it;
// - **the count waiting for its second signature**: "waiting for a floor manager's
//   signature" for the dealer who counted, "Sign" for the other of the two;
// - **fills and credits** not yet received, each with its label (F-2026-000042), chips,
//   total, who signed, and "Sign" when it is the table's turn.
//
// The running total, the expected tray and the variance stay in the action bar. Every write
// goes through the outbox with its Idempotency-Key; a refusal is shown in words where it
// belongs (a row, the reason, the slip). The count form is drawn once per table and kept
// while the dealer types (nothing typed loses its focus); the screen looks again by itself
// only while it waits for someone else and no form is on it.

import { ApiError, NotSent } from "./api.js";
import { el } from "./cards.js";
import { money, signed } from "./money.js";

const say = (template, params) => interpolate(template, params, true);
const RECHECK_MS = 5000;
const CHIPS_AGAIN_MS = 60000;
const MOST_CHIPS = 999999;

// The colours of the standard chip set, for the catalogs: a chip's colour is the chip set's
// data, shown through the catalog (a colour it does not know is shown as the set names it).
export const COLOURS = [gettext("light blue"), gettext("white"), gettext("red"), gettext("green"), gettext("black"), gettext("purple"), gettext("yellow")];

const colourWord = (denomination) => (denomination.colour ? gettext(denomination.colour) : "");
const chipName = (denomination) => [money(denomination.value), colourWord(denomination)].filter(Boolean).join(" ");

// The step a person signed in, as the slip says it ("cage (cage)", "ana (dealer)").
const STEP_WORDS = {
  dealer: () => pgettext("signed as", "dealer"),
  floor: () => pgettext("signed as", "floor manager"),
  cage: () => pgettext("signed as", "cage"),
  count: () => pgettext("signed as", "counter"),
};
const stepWord = (step) => (STEP_WORDS[step] ? STEP_WORDS[step]() : step);

function totalOf(counts) {
  return Object.entries(counts || {}).reduce((sum, [value, count]) => sum + Number(value) * Number(count), 0);
}

function sameCounts(a, b) {
  const keys = new Set([...Object.keys(a || {}), ...Object.keys(b || {})]);
  return [...keys].every((key) => Number((a || {})[key] || 0) === Number((b || {})[key] || 0));
}

// A variance in words: "$200.00 short", "$5.00 over", "no variance".
function variancePhrase(variance) {
  if (variance < 0) return say(gettext("%(amount)s short"), { amount: money(-variance) });
  if (variance > 0) return say(gettext("%(amount)s over"), { amount: money(variance) });
  return gettext("no variance");
}

// Two taps for a signature (it cannot be taken back): the first arms the button ("Tap again
// …"), the second signs; it disarms itself after a few seconds.
function confirmButton(label, again, action, attrs, painted) {
  let timer = null;
  const node = el(
    "button",
    {
      type: "button",
      ...attrs,
      onclick: async () => {
        if (node.dataset.confirm !== "armed") {
          node.dataset.confirm = "armed";
          node.textContent = again;
          painted();
          timer = setTimeout(() => {
            node.dataset.confirm = "";
            node.textContent = label;
          }, 5000);
          return;
        }
        clearTimeout(timer);
        node.disabled = true;
        await action();
      },
    },
    label,
  );
  node.dataset.confirm = "";
  return node;
}

// Counts per denomination as a small table (a count waiting for its signature, a slip).
function countsTable(chips, counts, caption) {
  const rows = chips.filter((d) => Number(counts[String(d.value)] || 0) > 0);
  return el(
    "table",
    { class: "cus-counts" },
    el("caption", { class: "visually-hidden" }, caption),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, gettext("Chip")), el("th", { scope: "col", class: "num" }, gettext("Count")), el("th", { scope: "col", class: "num" }, gettext("Amount")))),
    el(
      "tbody",
      {},
      rows.map((d) => {
        const count = Number(counts[String(d.value)]);
        return el("tr", { "data-denomination": d.value }, el("td", {}, swatch(d), " ", chipName(d)), el("td", { class: "num" }, String(count)), el("td", { class: "num" }, money(count * d.value)));
      }),
    ),
  );
}

function swatch(denomination) {
  const node = el("span", { class: "cus-swatch", "aria-hidden": "true" });
  // Through the CSSOM: a style attribute would be refused by the page's CSP.
  node.style.setProperty("--chip", /^#[0-9a-fA-F]{3,6}$/.test(denomination.hex || "") ? denomination.hex : "#9e9e9e");
  return node;
}

// ------------------------------------------------------------------ the count

// An opener or a closer being counted: a row a chip, kept while the dealer types.
class CountForm {
  // ctx: {send(form), painted()}; table, kind ("opener" | "closer"), chipSet, state.
  constructor(ctx, table, kind, chipSet, state) {
    this.ctx = ctx;
    this.table = table;
    this.kind = kind;
    this.chipSet = chipSet;
    this.chips = chipSet.denominations.filter((d) => d.form === "chip");
    this.proposal = kind === "opener" && state.proposal ? state.proposal.counts : null;
    this.expected = kind === "closer" ? state.window.expected_tray : null;
    this.line = chipSet.report_variance_above;
    this.signature = CountForm.signature(table, kind, state);
    this.rows = new Map();
    this.reason = "";
    this.problems = { rows: {}, reason: null, form: [] };
    this.sending = false;
    this.build();
    this.update();
  }

  static signature(table, kind, state) {
    return JSON.stringify([table.id, kind, kind === "opener" ? state.proposal && state.proposal.id : state.window.opener && state.window.opener.id]);
  }

  build() {
    const intro = this.kind === "opener"
      ? this.proposal
        ? say(gettext("Pre-filled with the last closer (%(total)s): if the tray holds the same, one tap sends it. Otherwise correct the rows that differ."), { total: money(totalOf(this.proposal)) })
        : gettext("No closer to start from: count every row.")
      : gettext("Count every row of the tray. The variance against the expected tray shows as you type.");
    const list = el(
      "ul",
      { class: "cus-rows", "aria-label": gettext("Chips by denomination") },
      this.chips.map((d) => this.row(d)),
    );
    this.reasonInput = el("textarea", {
      id: "custody-reason",
      name: "reason",
      rows: "2",
      maxlength: "500",
      "aria-describedby": "custody-reason-help custody-reason-error",
      oninput: () => {
        this.reason = this.reasonInput.value;
        if (this.problems.reason && this.reason.trim()) {
          this.problems.reason = null;
          this.paintReason();
        }
      },
    });
    this.reasonHelp = el("p", { class: "muted cus-help", id: "custody-reason-help" });
    this.reasonError = el("p", { class: "problem", id: "custody-reason-error", role: "alert" });
    this.reasonBox = el(
      "div",
      { class: "cus-reason", hidden: true },
      el("label", { for: "custody-reason" }, gettext("Reason for the variance (required)")),
      this.reasonHelp,
      this.reasonInput,
      this.reasonError,
    );
    this.formError = el("div", { class: "problem cus-form-error", id: "custody-form-error", role: "alert" });
    this.node = el(
      "section",
      { class: "panel cus-count", "aria-labelledby": "custody-count-title", "data-kind": this.kind },
      el("h2", { id: "custody-count-title" }, this.kind === "opener" ? gettext("Count the opener") : gettext("Count the closer")),
      el("p", { class: "muted cus-intro" }, intro),
      list,
      this.reasonBox,
    );
    // The action bar's part: the running total (and the expected tray and the variance), the
    // way back to the last closer, the send button.
    this.totalNode = el("strong", { class: "cus-total", id: "custody-total" });
    this.expectedNode = this.kind === "closer" ? el("span", { class: "cus-expected" }) : null;
    this.varianceNode = this.kind === "closer" ? el("span", { class: "cus-variance", id: "custody-variance" }) : null;
    this.noticeNode = el("span", { class: "cus-notice", role: "status" });
    this.resetButton = this.proposal
      ? el("button", { type: "button", class: "act undo", "data-action": "count-reset", onclick: () => this.reset() }, gettext("Back to the last closer"))
      : null;
    this.sendButton = el("button", { type: "button", class: "act chips primary", id: "custody-send", "data-action": "count-send", onclick: () => this.ctx.send(this) });
    // A refusal that is no row's nor the reason's stays in view, in the bar.
    this.bar = [
      this.formError,
      el(
        "div",
        { class: "cus-barline" },
        el("div", { class: "cus-sum", "aria-live": "polite" }, el("span", { class: "cus-sum-item" }, gettext("Total"), " ", this.totalNode), this.expectedNode, this.varianceNode),
        el("div", { class: "buttons cus-buttons" }, this.noticeNode, this.resetButton, this.sendButton),
      ),
    ];
  }

  row(d) {
    const key = String(d.value);
    const id = `count-${key}`;
    const start = this.proposal ? Number(this.proposal[key] || 0) : null;
    const name = chipName(d);
    const input = el("input", {
      id,
      name: key,
      type: "text",
      inputmode: "numeric",
      autocomplete: "off",
      class: "cus-count",
      value: start === null ? "" : String(start),
      enterkeyhint: "next",
      "aria-describedby": `${id}-was ${id}-error`,
      // A tap on a count selects it: the number typed replaces it.
      onfocus: () => input.select(),
      oninput: () => {
        delete this.problems.rows[key];
        this.update();
      },
      // Enter goes on to the next row (the send button after the last).
      onkeydown: (event) => {
        if (event.key !== "Enter") return;
        event.preventDefault();
        const inputs = [...this.rows.values()].map((row) => row.input);
        const next = inputs[inputs.indexOf(input) + 1];
        if (next) next.focus();
        else this.sendButton.focus();
      },
    });
    const step = (by) => {
      const read = this.read(input.value);
      const now = read.error ? 0 : read.value;
      input.value = String(Math.min(MOST_CHIPS, Math.max(0, now + by)));
      delete this.problems.rows[key];
      this.update();
      this.ctx.painted();
    };
    const amount = el("output", { class: "cus-amount", for: id, "data-role": "row-amount" });
    const was = el("span", { class: "cus-was", id: `${id}-was` });
    const error = el("p", { class: "problem cus-row-error", id: `${id}-error` });
    const node = el(
      "li",
      { class: "cus-row", "data-denomination": key },
      el("label", { class: "cus-chip", for: id }, swatch(d), el("span", { class: "cus-value" }, money(d.value)), el("span", { class: "cus-colour" }, colourWord(d)), was),
      el(
        "div",
        { class: "cus-stepper" },
        el("button", { type: "button", class: "cus-step", "data-action": "less", "aria-label": say(gettext("One chip of %(chip)s less"), { chip: name }), onclick: () => step(-1) }, "−"),
        input,
        el("button", { type: "button", class: "cus-step", "data-action": "more", "aria-label": say(gettext("One chip of %(chip)s more"), { chip: name }), onclick: () => step(1) }, "+"),
      ),
      amount,
      error,
    );
    this.rows.set(key, { d, input, amount, was, error, node, start });
    return node;
  }

  // A count as typed: empty is none; otherwise a whole number of chips.
  read(text) {
    const cleaned = String(text).replace(/[\s\u00a0\u202f]/g, "");
    if (cleaned === "") return { value: 0 };
    if (!/^[0-9]+$/.test(cleaned) || Number(cleaned) > MOST_CHIPS) return { error: gettext("Enter a whole number of chips, like 20.") };
    return { value: Number(cleaned) };
  }

  counts() {
    const counts = {};
    const problems = [];
    for (const [key, row] of this.rows) {
      const read = this.read(row.input.value);
      if (read.error) problems.push({ key, row, message: read.error });
      else if (read.value) counts[key] = read.value;
    }
    return { counts, problems };
  }

  get total() {
    return totalOf(this.counts().counts);
  }

  get matches() {
    return !!this.proposal && sameCounts(this.counts().counts, this.proposal) && !this.counts().problems.length;
  }

  get needsReason() {
    if (this.kind !== "closer") return false;
    return Math.abs(this.total - this.expected) > this.line || !!this.problems.reason;
  }

  reset() {
    for (const row of this.rows.values()) row.input.value = String(row.start || 0);
    this.problems = { rows: {}, reason: null, form: [] };
    this.notice = null;
    this.update();
    this.ctx.painted();
  }

  // Everything that follows what is typed, redrawn in place.
  update() {
    const { counts, problems } = this.counts();
    const bad = new Map(problems.map((p) => [p.key, p.message]));
    for (const [key, row] of this.rows) {
      const count = Number(counts[key] || 0);
      row.amount.textContent = bad.has(key) ? "—" : money(count * row.d.value);
      const differs = row.start !== null && !bad.has(key) && count !== row.start;
      row.node.classList.toggle("changed", differs);
      row.was.textContent = differs ? say(gettext("last closer: %(n)s"), { n: row.start }) : "";
      const message = this.problems.rows[key] || bad.get(key) || "";
      row.error.textContent = message;
      row.node.classList.toggle("invalid", !!message);
      if (message) row.input.setAttribute("aria-invalid", "true");
      else row.input.removeAttribute("aria-invalid");
    }
    const total = totalOf(counts);
    this.totalNode.textContent = money(total);
    if (this.kind === "closer") {
      const variance = total - this.expected;
      const above = Math.abs(variance) > this.line;
      this.expectedNode.replaceChildren(gettext("Expected"), " ", el("strong", {}, money(this.expected)));
      this.varianceNode.replaceChildren(
        gettext("Variance"),
        " ",
        el("strong", {}, variance ? variancePhrase(variance) : money(0)),
        above ? " · " : null,
        above ? el("span", { class: "cus-needs" }, say(gettext("beyond the %(line)s line: give a reason"), { line: money(this.line) })) : null,
      );
      this.varianceNode.classList.toggle("above", above);
      this.varianceNode.dataset.variance = String(variance);
      this.reasonHelp.textContent = say(gettext("The tray is %(variance)s, beyond the report line of %(line)s: say why. A floor manager reviews the variance."), { variance: variancePhrase(variance), line: money(this.line) });
    }
    this.paintReason();
    this.formError.replaceChildren(...this.problems.form.map((line) => el("p", {}, line)));
    if (this.kind === "opener") {
      const matches = this.matches;
      this.sendButton.textContent = matches ? gettext("Counts match the last closer") : say(gettext("Send the opener: %(total)s"), { total: money(total) });
      if (this.resetButton) this.resetButton.hidden = matches;
    } else {
      this.sendButton.textContent = say(gettext("Send the closer: %(total)s"), { total: money(total) });
    }
    this.noticeNode.textContent = this.notice || "";
  }

  paintReason() {
    const shown = this.needsReason;
    this.reasonBox.hidden = !shown;
    this.reasonError.textContent = this.problems.reason || "";
    if (this.problems.reason) this.reasonInput.setAttribute("aria-invalid", "true");
    else this.reasonInput.removeAttribute("aria-invalid");
    this.reasonInput.required = shown;
  }

  // What the server refused, at its field: a row (counts.500), the reason, else the form.
  place(error, problems) {
    this.problems = { rows: {}, reason: null, form: [] };
    const errors = (error instanceof ApiError && error.body && error.body.errors) || [];
    for (const problem of errors) {
      const path = problem.path || "";
      const row = path.match(/^counts\.(\d+)$/);
      if (path === "reason") this.problems.reason = problem.message;
      else if (row && this.rows.has(row[1])) this.problems.rows[row[1]] = problem.message;
      else this.problems.form.push(problem.message);
    }
    if (!errors.length) this.problems.form = problems(error);
    this.update();
    if (this.problems.reason) this.reasonInput.focus();
    else {
      const first = Object.keys(this.problems.rows)[0];
      if (first) this.rows.get(first).input.focus();
    }
  }
}

// ------------------------------------------------------------------ the screen

export class CustodyScreens {
  // ctx: {api, outbox, go, nav, me (a function), problems (an error in words), render,
  // painted}
  constructor(ctx) {
    this.ctx = ctx;
    this.chips = undefined; // the chip set; null where the property keeps no custody
    this.chipsAt = 0;
    this.forms = new Map(); // table id -> the count being typed
    this.flash = null; // what the last step did, said once
    this.error = null;
    this.slipProblems = new Map(); // slip id -> a refusal in words
    this.waitingOn = null; // {table, id, kind}: the dealer's count waiting for its signature
    this.unsent = null; // {table}: a count the outbox is still sending
    this.poll = null;
    this.marker = null;
  }

  // The chip set (GET custody/chips/), asked once; where there is none (409) the tablet asks
  // again after a minute.
  async chipSet() {
    if (this.chips || (this.chips === null && Date.now() - this.chipsAt < CHIPS_AGAIN_MS)) return this.chips;
    try {
      this.chips = await this.ctx.api.get("custody/chips/");
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 409) throw error;
      this.chips = null;
    }
    this.chipsAt = Date.now();
    return this.chips;
  }

  myStep() {
    const me = this.ctx.me();
    return me && me.roles.includes("floor_manager") ? "floor" : "dealer";
  }

  mine(record) {
    const me = this.ctx.me();
    return !!me && record.signatures.some((s) => s.signed_by === me.username);
  }

  // Whether the dealer's signature is the one a count or a slip waits for.
  canSign(record) {
    if (this.mine(record)) return false;
    return !record.signatures.some((s) => s.step === this.myStep());
  }

  tableTurn(slip) {
    return (slip.kind === "fill" && slip.status === "issued") || (slip.kind === "credit" && slip.status === "requested");
  }

  // For the table screen: null where the property keeps no custody; else the table's custody
  // state and how many signatures wait for the dealer.
  async summary(tableId) {
    let state;
    try {
      if (!(await this.chipSet())) return null;
      state = await this.ctx.api.get(`tables/${tableId}/custody/`);
    } catch (error) {
      if (error instanceof ApiError && error.status !== 401) return null; // the table screen still works
      throw error;
    }
    let toSign = state.slips.filter((slip) => this.tableTurn(slip) && this.canSign(slip)).length;
    if (state.pending && this.canSign(state.pending)) toSign += 1;
    return { state, toSign };
  }

  // The table screen's way in (the top line).
  button(tableId, summary) {
    if (!summary) return null;
    return el(
      "button",
      { type: "button", class: summary.toSign ? "cus-open to-sign" : "cus-open", "data-action": "custody", onclick: () => this.ctx.go({ table: tableId, custody: true }) },
      summary.toSign ? say(gettext("Chips and slips (%(n)s to sign)"), { n: summary.toSign }) : gettext("Chips and slips"),
    );
  }

  // A closed table's action bar: it opens with its counted opener.
  closedBar(tableId, summary) {
    if (!summary) return null;
    const pending = summary.state.pending;
    return [
      el("p", { class: "prompt" }, pending ? gettext("The table is closed: its opener waits for the second signature.") : gettext("The table is closed: it opens with its counted opener, signed by the dealer and a floor manager.")),
      el(
        "div",
        { class: "buttons" },
        el("button", { type: "button", class: "act chips primary", "data-action": "count-opener", onclick: () => this.ctx.go({ table: tableId, custody: true }) }, pending ? gettext("See the opener") : gettext("Count the opener")),
      ),
    ];
  }

  async screen(tableId, mode) {
    const [table, state, chipSet] = await Promise.all([this.ctx.api.get(`tables/${tableId}/`), this.ctx.api.get(`tables/${tableId}/custody/`), this.chipSet()]);
    const title = document.getElementById("title");
    if (title) title.textContent = `${table.name} · ${gettext("Chips and slips")}`;
    clearTimeout(this.poll);
    const back = el("button", { type: "button", "data-action": "back", onclick: () => this.ctx.go({ table: tableId }) }, gettext("Back to the table"));
    const heading = el("h1", { class: "cus-title" }, say(gettext("Chips at %(table)s"), { table: table.name }), el("span", { class: "muted" }, ` · ${gettext(table.status)}`));
    if (!chipSet) {
      return { nav: this.ctx.nav([back]), main: [heading, el("p", { class: "panel" }, gettext("This property keeps no chip custody: the table opens and closes without a count."))] };
    }
    if (this.unsent && this.unsent.table === tableId && !this.ctx.outbox.pending) {
      // The outbox got the count through after all: it waits for its signature.
      this.unsent = null;
      if (state.pending && this.mine(state.pending)) {
        this.forms.delete(tableId);
        mode = true;
      }
    }
    this.noticeSigned(tableId, state);
    const chips = chipSet.denominations.filter((d) => d.form === "chip");
    const main = [heading];
    const flash = this.flash;
    this.flash = null;
    if (flash) main.push(el("p", { class: "cus-flash", role: "status", tabindex: "-1" }, flash));
    if (this.error) main.push(el("div", { role: "alert", class: "alert" }, this.error.map((line) => el("p", {}, line))));
    this.error = null;
    let bar = [];
    let waiting = false;
    let form = null;
    const kind = table.status === "open" ? "closer" : "opener";
    const pending = state.pending;
    if (pending && mode !== "count") {
      const section = this.pendingPanel(pending, state, chips, tableId);
      main.push(section.node);
      bar = section.bar;
      waiting = section.waiting;
    } else if (kind === "opener" || mode === "count") {
      form = this.forms.get(tableId);
      if (!form || form.kind !== kind || form.signature !== CountForm.signature(table, kind, state)) {
        form = new CountForm({ send: (f) => this.send(f), painted: this.ctx.painted }, table, kind, chipSet, state);
        this.forms.set(tableId, form);
      }
      if (kind === "closer") form.expected = state.window.expected_tray; // a fill may have come in meanwhile
      if (pending) main.push(el("p", { class: "prompt warn" }, gettext("A count waits for its signature: sending this one replaces it.")));
      if (kind === "closer") main.push(this.windowFacts(state));
      main.push(form.node);
      form.update();
      bar = form.bar;
    } else {
      main.push(this.windowFacts(state));
      const travelling = state.slips.find((slip) => slip.kind === "fill" && slip.status === "issued");
      bar = [
        travelling ? el("p", { class: "prompt warn" }, say(gettext("%(label)s is on its way: the table receives it before the closer."), { label: travelling.label })) : null,
        el(
          "div",
          { class: "buttons" },
          el("button", { type: "button", class: "act stand", "data-action": "recheck", onclick: () => this.ctx.render() }, gettext("Check again")),
          // Not the screen's main step while the game runs: a plain button.
          el("button", { type: "button", class: "act undo", "data-action": "count-closer", onclick: () => this.ctx.go({ table: tableId, custody: "count" }) }, gettext("Count the closer")),
        ),
      ];
    }
    if (state.slips.length) {
      const slips = this.slipsPanel(state.slips, chips);
      main.push(slips.node);
      waiting = waiting || slips.waiting;
    } else if (table.status === "open") {
      main.push(el("p", { class: "muted cus-no-slips" }, gettext("No fill or credit is on its way.")));
    }
    this.marker = main[0];
    // Looking again by itself only while someone else is to sign and nothing is being typed.
    if (waiting && !form) {
      const marker = this.marker;
      this.poll = setTimeout(() => {
        if (marker.isConnected && !this.ctx.outbox.pending) this.ctx.render();
      }, RECHECK_MS);
    }
    return { nav: this.ctx.nav([back]), main, bar };
  }

  // The dealer's own count got its second signature (or was replaced) since last drawn.
  noticeSigned(tableId, state) {
    const was = this.waitingOn;
    if (!was || was.table !== tableId || (state.pending && state.pending.id === was.id)) return;
    this.waitingOn = null;
    const done = was.kind === "opener" ? state.window.opener : state.window.closer;
    if (done && done.id === was.id) {
      const other = done.signatures.find((s) => s.signed_by !== (this.ctx.me() || {}).username);
      const who = other ? other.signed_by : "";
      this.flash = was.kind === "opener" ? say(gettext("%(who)s signed the opener: the table is open."), { who }) : say(gettext("%(who)s signed the closer: the table is closed."), { who });
    } else {
      this.flash = gettext("Your count is no longer waiting: another count replaced it.");
    }
  }

  windowFacts(state) {
    const w = state.window;
    if (!w.opener) return el("p", { class: "muted" }, gettext("No opener signed yet."));
    const fact = (label, value, attrs = {}) => el("div", { class: "cus-fact", ...attrs }, el("dt", {}, label), el("dd", {}, value));
    return el(
      "dl",
      { class: "cus-facts", "aria-label": gettext("The tray since the opener") },
      fact(gettext("Opener"), money(w.opener.total)),
      fact(gettext("Fills"), money(w.fills)),
      fact(gettext("Credits"), money(w.credits)),
      fact(gettext("House net"), signed(w.house_net)),
      fact(gettext("Expected tray"), money(w.expected_tray), { class: "cus-fact expected", "data-expected": w.expected_tray }),
    );
  }

  // A count waiting for its second signature: the dealer's own (waiting), or one the dealer
  // signs.
  pendingPanel(pending, state, chips, tableId) {
    const mine = this.mine(pending);
    const counter = pending.signatures[0] ? pending.signatures[0].signed_by : "";
    const opener = pending.kind === "opener";
    const details = [
      el("p", { class: "cus-pending-total" }, say(gettext("Counted by %(who)s: %(total)s"), { who: counter, total: money(pending.total) })),
      pending.kind === "closer"
        ? el("p", {}, say(gettext("Expected %(expected)s, variance %(variance)s (%(words)s)"), { expected: money(pending.expected), variance: signed(pending.variance), words: variancePhrase(pending.variance) }))
        : null,
      pending.reason ? el("p", {}, say(gettext("Reason: %(reason)s"), { reason: pending.reason })) : null,
      countsTable(chips, pending.counts, opener ? gettext("The opener by denomination") : gettext("The closer by denomination")),
    ];
    const recount = el("button", { type: "button", class: "act undo", "data-action": "recount", onclick: () => this.ctx.go({ table: tableId, custody: "count" }) }, gettext("Count again"));
    if (mine) {
      this.waitingOn = { table: tableId, id: pending.id, kind: pending.kind };
      const otherWord = this.myStep() === "floor" ? gettext("Waiting for the dealer's signature") : gettext("Waiting for a floor manager's signature");
      return {
        waiting: true,
        node: el(
          "section",
          { class: "panel waiting cus-pending", role: "status", "aria-labelledby": "custody-pending-title", "data-pending": pending.id },
          el("h2", { id: "custody-pending-title" }, otherWord),
          el("p", {}, opener ? gettext("You counted and signed the opener. The table opens when the other of the two signs it.") : gettext("You counted and signed the closer. The table closes when the other of the two signs it.")),
          details,
        ),
        bar: [
          el("p", { class: "prompt" }, otherWord),
          el(
            "div",
            { class: "buttons" },
            el("button", { type: "button", class: "act stand", "data-action": "recheck", onclick: () => this.ctx.render() }, gettext("Check again")),
            recount,
          ),
        ],
      };
    }
    const signable = this.canSign(pending);
    const node = el(
      "section",
      { class: "panel waiting cus-pending", "aria-labelledby": "custody-pending-title", "data-pending": pending.id },
      el(
        "h2",
        { id: "custody-pending-title" },
        signable
          ? say(opener ? gettext("Sign the opener counted by %(who)s") : gettext("Sign the closer counted by %(who)s"), { who: counter })
          : opener ? gettext("The opener waits for its second signature") : gettext("The closer waits for its second signature"),
      ),
      signable ? el("p", {}, gettext("Check the counts against the tray: your signature is the second of the two.")) : null,
      details,
    );
    if (!signable) return { waiting: true, node, bar: [el("div", { class: "buttons" }, el("button", { type: "button", class: "act stand", "data-action": "recheck", onclick: () => this.ctx.render() }, gettext("Check again")), recount)] };
    const sign = confirmButton(
      opener ? gettext("Sign the opener") : gettext("Sign the closer"),
      opener ? gettext("Tap again to sign: the table opens") : gettext("Tap again to sign: the table closes"),
      () => this.signCount(pending),
      { class: "act chips primary", "data-action": "sign-count", id: "custody-sign" },
      this.ctx.painted,
    );
    return { waiting: false, node, bar: [el("div", { class: "buttons" }, sign, recount)] };
  }

  slipsPanel(slips, chips) {
    let waiting = false;
    const items = slips.map((slip) => {
      const fill = slip.kind === "fill";
      const turn = this.tableTurn(slip);
      const signable = turn && this.canSign(slip);
      if (!signable) waiting = true;
      const status = fill
        ? slip.status === "requested" ? gettext("Requested: waiting for the cage.") : gettext("On its way: the dealer and a floor manager sign for it at the table.")
        : slip.status === "requested" ? gettext("Requested: the dealer and a floor manager sign for what leaves the table.") : gettext("On its way to the cage.");
      const who = slip.signatures.map((s) => `${s.signed_by} (${stepWord(s.step)})`).join(", ");
      const problem = this.slipProblems.get(slip.id);
      this.slipProblems.delete(slip.id);
      let action = null;
      if (signable) {
        action = confirmButton(
          say(gettext("Sign %(label)s"), { label: slip.label }),
          fill ? say(gettext("Tap again: %(total)s received"), { total: money(slip.total) }) : say(gettext("Tap again: %(total)s leaves the table"), { total: money(slip.total) }),
          () => this.signSlip(slip),
          { class: "act chips primary", "data-action": "sign-slip", "data-slip": slip.id, "aria-describedby": `slip-${slip.id}-head` },
          this.ctx.painted,
        );
      } else if (turn) {
        action = el("p", { class: "muted" }, this.mine(slip) ? gettext("You signed: waiting for the other of the two.") : gettext("Waiting for the other signature at the table."));
      }
      return el(
        "li",
        { class: `cus-slip ${slip.kind}`, "data-slip": slip.id, "data-status": slip.status },
        el(
          "p",
          { class: "cus-slip-head", id: `slip-${slip.id}-head` },
          el("strong", { class: "cus-label" }, slip.label),
          " ",
          el("span", { class: "cus-kind" }, fill ? gettext("Fill") : gettext("Credit")),
          " · ",
          el("strong", {}, money(slip.total)),
        ),
        el("p", { class: "cus-slip-status" }, status),
        el("p", { class: "cus-slip-chips" }, chips.filter((d) => slip.counts[String(d.value)]).map((d) => el("span", { class: "cus-slip-chip" }, swatch(d), `${slip.counts[String(d.value)]} × ${chipName(d)}`))),
        el("p", { class: "cus-signed" }, who ? say(gettext("Signed: %(who)s"), { who }) : gettext("Not signed yet.")),
        problem ? el("p", { class: "problem", role: "alert" }, problem) : null,
        action,
      );
    });
    return {
      waiting,
      node: el(
        "section",
        { class: "panel cus-slips", "aria-labelledby": "custody-slips-title" },
        el("h2", { id: "custody-slips-title" }, gettext("Fills and credits")),
        el("ul", { class: "cus-slip-list" }, items),
      ),
    };
  }

  // ---------------------------------------------------------------- writes

  async send(form) {
    if (form.sending || this.ctx.outbox.pending) return;
    const { counts, problems } = form.counts();
    form.problems = { rows: {}, reason: null, form: [] };
    if (problems.length) {
      form.notice = gettext("Nothing was sent: correct the rows marked.");
      form.update();
      problems[0].row.input.focus();
      this.ctx.painted();
      return;
    }
    const body = { counts, total: totalOf(counts) };
    if (form.kind === "closer" && form.reason.trim()) body.reason = form.reason.trim();
    form.sending = true;
    form.notice = gettext("Sending…");
    form.update();
    let answer;
    try {
      answer = await this.ctx.outbox.send(`tables/${form.table.id}/custody/${form.kind}/`, body);
    } catch (error) {
      form.sending = false;
      if (error instanceof NotSent) {
        this.unsent = { table: form.table.id };
        form.notice = gettext("Not sent yet: the tablet keeps trying");
        form.update();
        this.ctx.painted();
        return;
      }
      form.notice = gettext("Nothing was sent: the count was refused.");
      form.place(error, this.ctx.problems);
      this.ctx.painted();
      return;
    }
    form.sending = false;
    this.forms.delete(form.table.id);
    this.waitingOn = { table: form.table.id, id: answer.id, kind: answer.kind };
    await this.ctx.go({ table: form.table.id, custody: true });
  }

  async signCount(pending) {
    if (this.ctx.outbox.pending) return;
    try {
      await this.ctx.outbox.send(`custody/inventories/${pending.id}/sign/`, {});
      this.flash = pending.kind === "opener" ? gettext("You signed the opener: the table is open.") : gettext("You signed the closer: the table is closed.");
    } catch (error) {
      if (error instanceof NotSent) return;
      this.error = this.ctx.problems(error);
    }
    await this.ctx.go({ table: pending.table, custody: true });
  }

  async signSlip(slip) {
    if (this.ctx.outbox.pending) return;
    try {
      const answer = await this.ctx.outbox.send(`custody/slips/${slip.id}/sign/`, {});
      this.flash = answer.status === slip.status ? say(gettext("You signed %(label)s."), { label: slip.label }) : answer.kind === "fill" ? say(gettext("%(label)s is received: %(total)s in the tray."), { label: slip.label, total: money(slip.total) }) : say(gettext("%(label)s is signed at the table: on its way to the cage."), { label: slip.label });
    } catch (error) {
      if (error instanceof NotSent) return;
      this.slipProblems.set(slip.id, this.ctx.problems(error).join(" "));
    }
    await this.ctx.render();
  }
}
