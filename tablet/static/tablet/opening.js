// The next hand's opening body, dealt by touch: from the game's opening schema, every card
// the body needs becomes a slot, seat by seat in dealing order (a seat's cards, its banner,
// its palace, ...), then the table's own (an upcard); the picker fills the slots in order,
// one tap a card, and undo takes the last one back. Amounts per seat (a stack) start from
// the table's proposal (where the last settlement left them) and can be corrected.

import { isCard } from "./cards.js";

const isCardSchema = (s) => s && s.type === "string" && typeof s.pattern === "string" && s.pattern.includes("cdhs");
const isCardsSchema = (s) => s && s.type === "array" && isCardSchema(s.items || {});
const countOf = (s) => s.maxItems ?? s.minItems ?? 1;

export class Opening {
  constructor(schema, seats, proposal = {}, riding = new Set()) {
    this.values = {};
    this.slots = []; // {seat, path: [..], index|null, field}
    this.amounts = []; // {seat, path, field, value}
    const props = schema.properties || {};
    const required = new Set(schema.required || []);
    for (const [name, field] of Object.entries(props)) {
      if (riding.has(name)) continue;
      const item = field.items || {};
      if (field.type === "array" && item.properties && item.properties.seat) {
        const proposed = Array.isArray(proposal[name]) ? proposal[name] : [];
        this.values[name] = seats.map((seat) => ({ seat }));
        seats.forEach((seat, i) => {
          const part = this.values[name][i];
          const known = proposed.find((p) => p.seat === seat) || {};
          for (const [key, sub] of Object.entries(item.properties)) {
            if (key === "seat") continue;
            if (isCardsSchema(sub)) {
              part[key] = [];
              for (let n = 0; n < countOf(sub); n += 1) this.slots.push({ seat, target: part, key, list: true, field: key });
            } else if (isCardSchema(sub)) {
              part[key] = null;
              this.slots.push({ seat, target: part, key, list: false, field: key });
            } else if (sub.type === "integer" && (item.required || []).includes(key)) {
              part[key] = typeof known[key] === "number" ? known[key] : null;
              this.amounts.push({ seat, target: part, key, proposed: typeof known[key] === "number" });
            }
          }
        });
      } else if (field.type === "object" && field.additionalProperties && isCardsSchema(field.additionalProperties)) {
        this.values[name] = {};
        for (const seat of seats) {
          this.values[name][seat] = [];
          for (let n = 0; n < countOf(field.additionalProperties); n += 1) this.slots.push({ seat, target: this.values[name], key: String(seat), list: true, field: "cards" });
        }
      } else if (isCardSchema(field) && required.has(name)) {
        this.values[name] = null;
        this.slots.push({ seat: null, target: this.values, key: name, list: false, field: name });
      } else if (field.type === "integer" && (required.has(name) || typeof proposal[name] === "number") && name !== "dealer") {
        this.values[name] = typeof proposal[name] === "number" ? proposal[name] : null;
        this.amounts.push({ seat: null, target: this.values, key: name, proposed: typeof proposal[name] === "number" });
      }
    }
    this.filled = 0;
  }

  get current() {
    return this.slots[this.filled] || null;
  }

  get cardsDone() {
    return this.filled >= this.slots.length;
  }

  get missingAmounts() {
    return this.amounts.filter((a) => typeof a.target[a.key] !== "number");
  }

  get ready() {
    return this.cardsDone && !this.missingAmounts.length;
  }

  picked() {
    const out = [];
    for (const slot of this.slots.slice(0, this.filled)) {
      const value = slot.target[slot.key];
      if (slot.list) out.push(...value.filter(isCard));
      else if (isCard(value)) out.push(value);
    }
    return [...new Set(out)];
  }

  fill(card) {
    const slot = this.current;
    if (!slot) return;
    if (slot.list) slot.target[slot.key].push(card);
    else slot.target[slot.key] = card;
    this.filled += 1;
  }

  undo() {
    if (!this.filled) return;
    this.filled -= 1;
    const slot = this.slots[this.filled];
    if (slot.list) slot.target[slot.key].pop();
    else slot.target[slot.key] = null;
  }

  // What the seat holds so far: {cards: [...], groups: [{name, cards}]}, for its seat view.
  seatCards(seat) {
    const groups = new Map();
    for (const slot of this.slots.slice(0, this.filled)) {
      if (slot.seat !== seat) continue;
      const value = slot.target[slot.key];
      const cards = slot.list ? value : [value];
      groups.set(slot.field, [...new Set([...(groups.get(slot.field) || []), ...cards.filter(isCard)])]);
    }
    const cards = groups.get("cards") || [];
    groups.delete("cards");
    return {
      cards: cards.map((card) => ({ card, up: true })),
      groups: [...groups].map(([name, list]) => ({ name, cards: list.map((card) => ({ card, up: true })) })),
    };
  }

  // The table's own cards so far (an upcard).
  tableCards() {
    return this.slots.slice(0, this.filled).filter((s) => s.seat === null).map((s) => s.target[s.key]).filter(isCard);
  }

  amountOf(seat, key = null) {
    const found = this.amounts.find((a) => a.seat === seat && (key === null || a.key === key));
    return found || null;
  }

  body(extra = {}) {
    return { ...JSON.parse(JSON.stringify(this.values)), ...extra };
  }
}
