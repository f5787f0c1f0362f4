// Forms built from what the API says: an action's fields from the game's action schema
// (GET /api/v1/games/), its bounds from the legal action (the hand's state). One set of
// screens for every game: a card field gets the card picker, an amount an input with the
// legal minimum and maximum and quick steps, a choice its buttons.

import { cardLabel, cardPicker, cardWords, el } from "./cards.js";

const CARD = "^[2-9TJQKA][cdhs]$";

function isCard(schema) {
  return schema && schema.type === "string" && schema.pattern === CARD;
}

function isCards(schema) {
  return schema && schema.type === "array" && isCard(schema.items || {});
}

function words(name) {
  return gettext(name.replaceAll("_", " "));
}

// An amount: the legal bounds pre-filled, and quick steps (min, max).
let fieldCount = 0;

function amountField(name, schema, bounds, values, onInput) {
  const low = bounds.min ?? schema.minimum ?? 0;
  const high = bounds.max ?? null;
  const id = `f-${name}-${(fieldCount += 1)}`;
  const input = el("input", {
    type: "number",
    inputmode: "numeric",
    id,
    name,
    min: low,
    max: high ?? undefined,
    step: bounds.step ?? 1,
    // Pre-filled with the legal minimum when there is one; otherwise the dealer enters it.
    value: values[name] ?? (bounds.min !== undefined ? low : ""),
  });
  if (input.value !== "") values[name] = Number(input.value);
  input.addEventListener("input", () => {
    values[name] = input.value === "" ? undefined : Number(input.value);
    onInput();
  });
  // A quick step types the amount in, as the dealer would (an input event).
  const set = (value) => () => {
    input.value = value;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  };
  const steps = bounds.min !== undefined ? [el("button", { type: "button", onclick: set(low) }, `${gettext("min")} ${low}`)] : [];
  if (bounds.pot !== undefined) steps.push(el("button", { type: "button", onclick: set(bounds.pot) }, `${gettext("pot")} ${bounds.pot}`));
  if (high !== null) steps.push(el("button", { type: "button", onclick: set(high) }, `${gettext("max")} ${high}`));
  return el("div", { class: "field" }, el("label", { for: id }, words(name)), input, ...steps);
}

function choiceField(name, options, values, onInput) {
  const group = el("div", { class: "field choices", role: "radiogroup", "aria-label": words(name) });
  for (const option of options) {
    const button = el(
      "button",
      {
        type: "button",
        role: "radio",
        "aria-checked": values[name] === option ? "true" : "false",
        onclick: () => {
          values[name] = option;
          for (const other of group.querySelectorAll("button")) other.setAttribute("aria-checked", "false");
          button.setAttribute("aria-checked", "true");
          onInput();
        },
      },
      option === null ? gettext("none") : /^[2-9TJQKA][cdhs]$/.test(option) ? cardLabel(option) : words(String(option)),
    );
    if (typeof option === "string" && /^[2-9TJQKA][cdhs]$/.test(option)) {
      button.dataset.card = option;
      button.setAttribute("aria-label", cardWords(option));
    }
    group.append(button);
  }
  return el("div", {}, el("span", { class: "label" }, words(name)), group);
}

// The fields of one action (or one part of an opening body). `values` collects the answers;
// `ready()` says whether every required one is there.
export function fieldsFor(schema, legal, context, values, onInput) {
  const nodes = [];
  const required = new Set(schema.required || []);
  const missing = [];
  // Declared first: a card picker reports its (empty) choice as soon as it is built.
  function ready() {
    return missing.every((name) => values[name] !== undefined && values[name] !== null);
  }
  for (const [name, field] of Object.entries(schema.properties || {})) {
    if (name === "type") continue;
    if (name === "seat" && (legal.seat !== undefined || context.seat !== undefined)) {
      values.seat = legal.seat ?? context.seat;
      continue;
    }
    const list = legal[`${name}s`] || (name === "target" && legal.targets) || (name === "buyer" && legal.buyers);
    if (Array.isArray(list)) {
      nodes.push(choiceField(name, list, values, onInput));
    } else if (field.enum) {
      nodes.push(choiceField(name, field.enum, values, onInput));
    } else if (isCard(field)) {
      nodes.push(
        cardPicker({
          deck: context.deck,
          taken: context.taken,
          pool: context.pool,
          label: words(name),
          count: 1,
          least: required.has(name) ? 1 : 0,
          onChange: (cards) => {
            values[name] = cards && cards.length ? cards[0] : undefined;
            onInput();
          },
        }),
      );
    } else if (isCards(field)) {
      const count = typeof legal[name] === "number" ? legal[name] : typeof legal.cards === "number" ? legal.cards : field.maxItems ?? field.minItems ?? 5;
      nodes.push(
        cardPicker({
          deck: context.deck,
          taken: context.taken,
          pool: context.pool,
          label: words(name),
          count,
          least: field.minItems ?? count,
          onChange: (cards) => {
            values[name] = cards ?? undefined;
            onInput();
          },
        }),
      );
    } else if (field.type === "integer" && name !== "seat" && name !== "hand") {
      const bounds = typeof legal[name] === "object" && legal[name] ? legal[name] : required.has(name) ? legal : {};
      // An optional amount is offered when the legal action names it (e.g. the bonus bets
      // a table offers) or gives its bounds.
      const offered = Object.values(legal).some((v) => Array.isArray(v) && v.includes(name));
      if (!required.has(name) && !offered && typeof legal[name] !== "object") continue;
      nodes.push(amountField(name, field, required.has(name) || !offered ? bounds : { min: 0, ...bounds }, values, onInput));
    } else if (name === "hand" && legal.hand !== undefined) {
      values.hand = legal.hand;
    }
    if (required.has(name)) missing.push(name);
  }
  return { nodes, ready };
}

// The body that opens a hand, from the game's opening schema: a list of per-seat objects
// (stacks, cards, banners) or a map of each seat's cards gets one group per seat the next
// hand deals in; single cards and amounts get their own field.
export function openFields(schema, seats, context, values, onInput) {
  const nodes = [];
  const checks = [];
  const parts = []; // one group per seat, shown one at a time
  const seatPart = (seat, children, ready) => {
    const node = el("fieldset", { class: "seat-part", "data-seat": seat, role: "tabpanel", id: `seat-part-${seat}` }, el("legend", {}, `${gettext("seat")} ${seat}`), children);
    parts.push({ seat, node, ready });
    checks.push(ready);
    return node;
  };
  const required = new Set(schema.required || []);
  for (const [name, field] of Object.entries(schema.properties || {})) {
    const item = field.items || {};
    if (field.type === "array" && item.properties && item.properties.seat) {
      values[name] = seats.map((seat) => ({ seat }));
      seats.forEach((seat, index) => {
        const part = values[name][index];
        const sub = fieldsFor({ ...item, required: (item.required || []).filter((k) => k !== "seat") }, {}, { ...context, seat }, part, onInput);
        delete part.type;
        nodes.push(seatPart(seat, sub.nodes, () => sub.ready()));
      });
    } else if (field.type === "object" && field.additionalProperties) {
      values[name] = {};
      for (const seat of seats) {
        const part = {};
        const sub = fieldsFor(
          { properties: { cards: field.additionalProperties }, required: ["cards"] },
          {},
          context,
          part,
          () => {
            values[name][seat] = part.cards;
            onInput();
          },
        );
        nodes.push(seatPart(seat, sub.nodes, () => Array.isArray(values[name][seat])));
      }
    } else if (required.has(name) || field.type === "integer") {
      if (name === "dealer") continue; // the next seat clockwise unless named
      const offer = field.type === "integer" ? { [name]: {} } : {};
      const part = fieldsFor({ properties: { [name]: field }, required: required.has(name) ? [name] : [] }, offer, context, values, onInput);
      nodes.push(...part.nodes);
      checks.push(() => part.ready());
    }
  }
  if (parts.length > 1) nodes.unshift(seatSteps(parts));
  return { nodes, ready: () => checks.every((check) => check()) };
}

// Seats one at a time: a tab per seat (ticked when its group is complete); the card that
// completes a seat's group moves on to the next seat still to do.
function seatSteps(parts) {
  let current = 0;
  const show = (index) => {
    current = index;
    parts.forEach((part, i) => {
      part.node.hidden = i !== index;
      part.tab.setAttribute("aria-selected", String(i === index));
      part.tab.tabIndex = i === index ? 0 : -1;
    });
  };
  const mark = () =>
    parts.forEach((part) => {
      const done = part.ready();
      part.tab.classList.toggle("done", done);
      part.tab.textContent = `${gettext("seat")} ${part.seat}${done ? " ✓" : ""}`;
    });
  for (const [index, part] of parts.entries()) {
    part.tab = el(
      "button",
      { type: "button", role: "tab", "data-seat": part.seat, "aria-controls": part.node.id, onclick: () => show(index) },
      `${gettext("seat")} ${part.seat}`,
    );
    part.node.addEventListener("click", (event) => {
      mark();
      if (!event.target.closest("button[data-card]") || !part.ready()) return;
      const next = parts.findIndex((other, i) => i > index && !other.ready());
      if (next >= 0) show(next);
    });
    part.node.addEventListener("input", mark);
  }
  const tabs = el("div", { role: "tablist", class: "seat-steps", "aria-label": gettext("Seats") }, parts.map((part) => part.tab));
  show(0);
  mark();
  return tabs;
}
