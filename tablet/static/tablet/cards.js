// Cards by touch: faces as the table shows them, and the picker: the game's own deck laid
// out a suit a row (spades, hearts, diamonds, clubs), ranks in order, cards already out shown
// gone, one tap a card.

const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
const SUIT_NAMES = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
const SUIT_ORDER = ["s", "h", "d", "c"];
const RANK_NAMES = { T: "10", J: "J", Q: "Q", K: "K", A: "A" };
export const CARD_RE = /^[2-9TJQKA][cdhs]$/;

export function isCard(value) {
  return typeof value === "string" && CARD_RE.test(value);
}

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

// A card's face (not a control): `up` false draws it as dealt face down (the dealer still
// sees it, framed as a hole card); an unknown card (null) is a back.
export function face(card, { up = true, tag = "span", attrs = {} } = {}) {
  if (!card) return el(tag, { class: "face back", "aria-label": gettext("a card face down"), ...attrs }, "🂠");
  const suit = card.slice(-1);
  return el(
    tag,
    { class: `face ${suit}${up ? "" : " down"}`, "data-face": card, "aria-label": cardWords(card), ...attrs },
    cardLabel(card),
  );
}

// The picker: every card of `deck` a button (data-card), a suit a row; `gone(card)` says
// whether it is out (taken in the hand or picked on this screen); `onPick(card)` is called on
// a tap. `disabled` greys the whole picker (nothing to pick yet).
export function picker({ deck, gone, onPick, label, disabled = false }) {
  const ranks = [...new Set(deck.map((card) => card.slice(0, -1)))];
  const rows = SUIT_ORDER.filter((suit) => deck.some((card) => card.endsWith(suit))).map((suit) =>
    el(
      "div",
      { class: `suit-row ${suit}`, role: "group", "aria-label": gettext(SUIT_NAMES[suit]) },
      ranks
        .map((rank) => `${rank}${suit}`)
        .filter((card) => deck.includes(card))
        .map((card) => {
          const out = gone(card);
          return el(
            "button",
            {
              type: "button",
              class: `pick ${suit}${out ? " gone" : ""}`,
              "data-card": card,
              "aria-label": out ? `${cardWords(card)}: ${gettext("already out")}` : cardWords(card),
              disabled: out || disabled,
              onclick: () => onPick(card),
            },
            cardLabel(card),
          );
        }),
    ),
  );
  const picker = el("div", { class: `picker${disabled ? " idle" : ""}`, role: "group", "aria-label": label }, rows);
  // Through the CSSOM: a style attribute would be refused by the page's CSP (no inline styles).
  picker.style.setProperty("--ranks", String(ranks.length));
  return picker;
}
