// The table drawn as a table: the seats around an oval in the order players sit (seat 1 at
// the dealer's left), the house or dealer's own hand at the dealer's place (bottom centre),
// and what lies on the felt in the middle (pots, community or up cards, the wild rank, the
// top discard, the kitty or bank). Everything comes from the presentation view.

import { el, face } from "./cards.js";
import { money, signed } from "./money.js";
import { word } from "./labels.js";

// Where the seats sit: a horseshoe around the felt, in the order players sit (seat 1 at the
// dealer's left): up the left side, along the far side, down the right side. Returns how
// many go left, along the top and right.
function split(count) {
  const side = count <= 2 ? Math.min(count, 1) : Math.round(count / 4);
  const right = count <= 1 ? 0 : side;
  return { left: side, top: count - side - right, right };
}

function cardsRow(cards, label) {
  if (!cards || !cards.length) return null;
  return el("span", { class: "cards", "aria-label": label || gettext("cards") }, cards.map((c) => face(c.card, { up: c.up })));
}

// One party's box. `party` is a presentation party with the table's `name` added; `extra`
// nodes go at the end (a seat's controls, a result).
export function seatView(party, { focus = false, selectable = false, onTap = null, extra = null } = {}) {
  const status = party.status && !["in", "waiting"].includes(party.status) ? party.status : null;
  const title = party.house ? gettext("House") : interpolate(gettext("Seat %(seat)s"), { seat: party.seat }, true);
  const wagers = (party.wagers || []).filter((w) => w.amount);
  const attrs = {
    class: `seat-view${focus ? " focus" : ""}${party.house ? " house" : ""}${status ? ` st-${status}` : ""}${selectable ? " selectable" : ""}`,
    "data-seat-view": party.seat,
    "aria-current": focus ? "true" : null,
  };
  const chips = [];
  if (party.stack !== null && party.stack !== undefined) chips.push(el("span", { class: "stack" }, money(party.stack)));
  if (party.committed_total) {
    const inRound = party.committed_round && party.committed_round !== party.committed_total ? `${money(party.committed_round)} / ` : "";
    chips.push(el("span", { class: "committed" }, `${gettext("in")} ${inRound}${money(party.committed_total)}`));
  }
  for (const w of wagers) chips.push(el("span", { class: "wager" }, `${word(w.name)} ${money(w.amount)}`));
  const body = [
    el(
      "div",
      { class: "who" },
      el("strong", {}, title),
      party.name ? el("span", { class: "name" }, party.name) : null,
      status ? el("span", { class: `status st-${status}` }, word(status)) : null,
      (party.badges || []).filter((badge) => !(party.house && badge === "house")).map((badge) => el("span", { class: `badge b-${badge}` }, word(badge))),
    ),
    cardsRow(party.cards),
    (party.groups || []).filter((g) => g.cards.length).map((g) => el("div", { class: "group" }, el("span", { class: "k" }, word(g.name)), cardsRow(g.cards, word(g.name)))),
    (party.hands || []).map((sub, i) =>
      el(
        "div",
        { class: `sub-hand${sub.to_act ? " focus" : ""}`, "data-hand": i },
        el("span", { class: "k" }, interpolate(gettext("hand %(n)s"), { n: i + 1 }, true)),
        cardsRow(sub.cards),
        sub.total ? el("span", { class: "total" }, word(sub.total)) : null,
        sub.status && !["in", "waiting"].includes(sub.status) ? el("span", { class: `status st-${sub.status}` }, word(sub.status)) : null,
        (sub.wagers || []).filter((w) => w.amount).map((w) => el("span", { class: "wager" }, `${word(w.name)} ${money(w.amount)}`)),
      ),
    ),
    summary(party),
    chips.length ? el("div", { class: "money" }, chips) : null,
    party.net !== undefined && party.net !== null ? el("span", { class: `net ${party.net > 0 ? "won" : party.net < 0 ? "lost" : ""}`, "data-net": party.net }, signed(party.net)) : null,
    extra,
  ];
  if (selectable && onTap) {
    return el("button", { type: "button", ...attrs, onclick: () => onTap(party.seat) }, body);
  }
  return el("section", { ...attrs, "aria-label": title }, body);
}

// A seat's total and hand name, once each ("17", not "17 · 17"); a split seat's hands carry
// their own totals.
function summary(party) {
  if ((party.hands || []).filter((sub) => sub.total).length > 1) return null;
  const parts = [...new Set([party.total ? word(party.total) : null, party.hand].filter(Boolean))];
  return parts.length ? el("div", { class: "total" }, parts.join(" · ")) : null;
}

// The felt: `parties` (seats, then the house if any) around it, `middle` in the centre.
export function felt(parties, middle, options = {}) {
  const seats = parties.filter((p) => !p.house);
  const house = parties.find((p) => p.house);
  const box = (party) =>
    seatView(party, {
      focus: options.focus === party.seat,
      selectable: options.selectable ? options.selectable.has(party.seat) : false,
      onTap: options.onTap,
      extra: options.extra ? options.extra(party) : null,
    });
  const { left, top } = split(seats.length);
  const leftSeats = seats.slice(0, left);
  const topSeats = seats.slice(left, left + top);
  const rightSeats = seats.slice(left + top);
  return el(
    "div",
    { class: `felt seats-${seats.length}${house ? " with-house" : ""}`, "aria-label": gettext("The table") },
    el("div", { class: "side side-top" }, topSeats.map(box)),
    el("div", { class: "side side-left" }, leftSeats.reverse().map(box)),
    el("div", { class: "middle" }, middle),
    el("div", { class: "side side-right" }, rightSeats.map(box)),
    el("div", { class: "side side-bottom" }, house ? box(house) : null),
  );
}

// What lies in the middle of a hand's table.
export function middleOf(view, extra = []) {
  const facts = [];
  if (view.phase) facts.push(el("span", { class: "phase" }, word(view.phase)));
  const pots = (view.pots || []).filter((p) => p.amount);
  for (const pot of pots) facts.push(el("span", { class: "pot" }, `${word(pot.name)} ${money(pot.amount)}`));
  if (view.bank !== null && view.bank !== undefined) facts.push(el("span", { class: "pot" }, `${gettext("bank")} ${money(view.bank)}`));
  if (view.kitty !== null && view.kitty !== undefined) facts.push(el("span", { class: "pot" }, `${gettext("kitty")} ${money(view.kitty)}`));
  const cards = [];
  if (view.community && view.community.length) cards.push(el("span", { class: "community" }, `${gettext("on the table")}: `, view.community.map((c) => face(c.card, { up: c.up }))));
  if (view.wild_rank) cards.push(el("span", { class: "wild" }, `${gettext("wild")}: ${view.wild_rank === "T" ? "10" : view.wild_rank}`));
  if (view.top_discard) cards.push(el("span", { class: "discard" }, `${gettext("discard")}: `, face(view.top_discard.card)));
  if (view.stock !== null && view.stock !== undefined) cards.push(el("span", { class: "stock" }, `${gettext("stock")}: ${view.stock}`));
  return [el("div", { class: "facts-row" }, facts), cards.length ? el("div", { class: "facts-row" }, cards) : null, extra];
}
