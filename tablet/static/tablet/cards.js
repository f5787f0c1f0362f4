// Cards by touch: a rank x suit grid of the game's own deck, cards already used in the hand
// shown as taken, and undo of the last card picked before it is sent.

const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
const SUIT_NAMES = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
const RANK_NAMES = { T: "10", J: "J", Q: "Q", K: "K", A: "A" };

export function cardLabel(card) {
  const rank = card.slice(0, -1);
  return `${RANK_NAMES[rank] || rank}${SUITS[card.slice(-1)]}`;
}

export function cardWords(card) {
  const rank = card.slice(0, -1);
  return `${RANK_NAMES[rank] || rank} ${gettext("of")} ${gettext(SUIT_NAMES[card.slice(-1)])}`;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value === true) node.setAttribute(key, "");
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(key, value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// The cards picked on one screen and not yet sent: a card one picker holds is shown taken in
// every other picker of the screen (two seats cannot be given the same card).
export class CardPool {
  constructor() {
    this.held = new Map(); // card -> the picker holding it
    this.pickers = new Set();
  }

  changed() {
    for (const paint of this.pickers) paint();
  }
}

// A picker for `count` cards (at least `least`) from `deck`, none of `taken` or of what other
// pickers of its `pool` hold; calls `onChange(cards)` with the cards picked so far.
export function cardPicker({ deck, taken = new Set(), least = 1, count = 1, label, onChange, pool = new CardPool() }) {
  const picked = [];
  const self = Symbol(label);
  const ranks = [...new Set(deck.map((card) => card.slice(0, -1)))];
  const suits = ["s", "h", "d", "c"].filter((suit) => deck.some((card) => card.endsWith(suit)));
  const chosen = el("output", { class: "picked", "aria-live": "polite" });
  const grid = el("div", { class: "grid", role: "group", "aria-label": label });
  const buttons = new Map();

  function paint() {
    chosen.replaceChildren(
      picked.length ? picked.map((card) => el("span", { class: `card ${card.slice(-1)}` }, cardLabel(card))) : "—",
      ` (${picked.length}/${count})`,
    );
    for (const [card, button] of buttons) {
      const elsewhere = pool.held.has(card) && pool.held.get(card) !== self;
      button.disabled = taken.has(card) || elsewhere || picked.includes(card) || picked.length >= count;
      button.setAttribute("aria-pressed", picked.includes(card) ? "true" : "false");
    }
    undo.disabled = picked.length === 0;
  }

  function refresh() {
    for (const [card, holder] of pool.held) if (holder === self && !picked.includes(card)) pool.held.delete(card);
    for (const card of picked) pool.held.set(card, self);
    pool.changed();
    onChange(picked.length >= least ? [...picked] : null);
  }

  for (const suit of suits) {
    for (const rank of ranks) {
      const card = `${rank}${suit}`;
      if (!deck.includes(card)) continue;
      const button = el(
        "button",
        {
          type: "button",
          class: `card ${suit}`,
          "data-card": card,
          "aria-label": cardWords(card),
          onclick: () => {
            if (picked.length < count) picked.push(card);
            refresh();
          },
        },
        cardLabel(card),
      );
      buttons.set(card, button);
      grid.append(button);
    }
  }
  const undo = el(
    "button",
    { type: "button", class: "undo", onclick: () => { picked.pop(); refresh(); } },
    gettext("Undo card"),
  );
  const box = el("fieldset", { class: "picker" }, el("legend", {}, label), chosen, undo, grid);
  pool.pickers.add(paint);
  paint();
  onChange(picked.length >= least ? [...picked] : null);
  return box;
}
