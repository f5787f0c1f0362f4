// The action bar: the legal actions of the seat to act as big buttons that say what they do,
// built from the game's action schemas and the hand's legal actions (no game is named here).
//
// Each legal action is read once (`analyse`): the fields the legal action fixes (the seat,
// the sub-hand, a call's amount), the choices it lists (targets, sources, buyers: one button
// each), an amount with its bounds (quick chips: min, +1 chip, pot, max, the seat's last),
// cards from the deck (the picker, one tap a card, sent when the last one is picked) and
// cards from the seat's own hand (a draw or a discard: tapped in the hand).

import { cardLabel, el, face, isCard, picker } from "./cards.js";
import { money, parseMajor, major } from "./money.js";
import { pickSeat, tone, verb, word } from "./labels.js";

const isCardSchema = (s) => s && s.type === "string" && typeof s.pattern === "string" && s.pattern.includes("cdhs");
const isCardsSchema = (s) => s && s.type === "array" && isCardSchema(s.items || {});

// The seat's own cards a discard is chosen from: a list of cards the legal action gives
// (soldiers, a hand's cards), else the seat's cards in the presentation view.
function ownOptions(legal, party) {
  for (const value of Object.values(legal)) {
    if (Array.isArray(value) && value.length && value.every(isCard)) return value;
  }
  if (!party) return [];
  const cards = (party.cards || []).map((c) => c.card);
  return cards.length ? cards : (party.groups || []).flatMap((g) => g.cards.map((c) => c.card));
}

export function analyse(schema, legal, seat, party) {
  const props = (schema && schema.properties) || {};
  const required = new Set((schema && schema.required) || []);
  const a = { type: legal.type, seat: legal.seat ?? seat, fixed: {}, choices: [], amount: null, bonuses: [], deck: null, own: null, card: null, legal };
  for (const [name, field] of Object.entries(props)) {
    if (name === "type") continue;
    if (name === "seat") {
      if (Array.isArray(legal.seats)) a.choices.push({ name, options: legal.seats });
      else a.fixed.seat = a.seat;
      continue;
    }
    if (name === "hand") {
      if (legal.hand !== undefined && legal.hand !== null) a.fixed.hand = legal.hand;
      continue;
    }
    const list = Array.isArray(legal[`${name}s`]) ? legal[`${name}s`] : name === "target" ? legal.targets : name === "buyer" ? legal.buyers : null;
    if (Array.isArray(list)) {
      if (list.length) a.choices.push({ name, options: list });
      continue;
    }
    if (field.enum) {
      a.choices.push({ name, options: field.enum });
      continue;
    }
    if (isCardSchema(field)) {
      a.card = { name, required: required.has(name) };
      continue;
    }
    if (isCardsSchema(field)) {
      if (name === "discard" || name === "discards" || legal.type === "discard") {
        const exact = typeof legal.must_discard === "number" ? legal.must_discard : null;
        if (exact !== 0 || required.has(name)) {
          a.own = { name, options: ownOptions(legal, party), exact, max: field.maxItems ?? 5, least: required.has(name) && legal.type === "discard" ? 1 : 0 };
        }
      } else {
        const count = typeof legal[name] === "number" ? legal[name] : typeof legal.cards === "number" ? legal.cards : field.minItems === field.maxItems ? field.maxItems ?? null : null;
        a.deck = { name, count };
      }
      continue;
    }
    if (field.type === "integer") {
      if (typeof legal[name] === "number") {
        a.fixed[name] = legal[name];
        continue;
      }
      const own = legal[name] && typeof legal[name] === "object" ? legal[name] : null;
      if (required.has(name) && (own || legal.min !== undefined)) {
        const b = own || legal;
        a.amount = { name, min: b.min ?? field.minimum ?? 0, max: b.max ?? null, pot: b.pot, step: b.step ?? 1 };
      } else if (required.has(name)) {
        a.amount = { name, min: field.minimum ?? 0, max: null, step: 1 };
      } else if ((legal.bonuses || []).includes(name)) {
        a.bonuses.push(name);
      }
    }
  }
  return a;
}

// The choices' combinations: [{name: value, ...}] (one empty variant when there is none).
function variants(a) {
  let out = [{}];
  for (const choice of a.choices) out = out.flatMap((v) => choice.options.map((option) => ({ ...v, [choice.name]: option })));
  return out;
}

// Whether a variant still needs a card from the deck (a single-card field): a choice the
// legal action already names a card for (the top of the discard pile, a forced stock card)
// needs none.
function cardFor(a, variant) {
  if (!a.card) return { need: false };
  const value = Object.values(variant).find((v) => typeof v === "string");
  if (value && a.legal[`top_${value}`]) return { need: false, shown: a.legal[`top_${value}`] };
  if (value && a.legal[`${value}_card`]) return { need: false, fixed: a.legal[`${value}_card`] };
  return { need: true };
}

function params(a, body, extra = {}) {
  const p = { seat: body.seat ?? a.seat, ...extra };
  if (extra.amount !== undefined) p.amount = extra.amount;
  else if (a.amount && body[a.amount.name] !== undefined) p.amount = money(body[a.amount.name]);
  else if (body.amount !== undefined) p.amount = money(body.amount);
  if (a.amount && a.amount.name === "to") p.to = true;
  if (body.target !== undefined) p.target = body.target;
  if (body.buyer !== undefined) p.buyer = body.buyer;
  if (body.hand !== undefined) p.hand = body.hand;
  for (const [k, v] of Object.entries(body)) if (typeof v === "string" && !isCard(v) && k !== "type") p.choice = v;
  if (body.seat !== undefined) p.seat = body.seat;
  return { ...p, ...extra };
}

// ------------------------------------------------------------------------------ the bar

export class ActionBar {
  // ctx: { chip, send(body) -> Promise<answer|null>, rerender(), last(seat, type) -> body|null,
  //        taken: Set, deck: [] }
  constructor() {
    this.pending = null; // the plan armed for cards from the deck: {key, body, cardName, count, picked}
    this.sel = null; // the seat's own cards tapped to throw away: {key, cards}
  }

  reset() {
    this.pending = null;
    this.sel = null;
  }

  // The buttons for `actions` (analysed) of one seat; `party` its presentation view.
  render(actions, party, ctx, lead = null) {
    const nodes = [];
    const taken = new Set([...ctx.taken, ...(this.pending ? this.pending.picked : [])]);
    const gone = (card) => taken.has(card);
    const keyOf = (a, v) => JSON.stringify([a.type, a.seat, a.fixed, v]);
    if (this.pending && !actions.some((a) => variants(a).some((v) => keyOf(a, v) === this.pending.key || this.pending.key.startsWith(keyOf(a, v))))) this.pending = null;

    // One plan only needs cards from the deck: armed from the start (a deal, a twist, a
    // draw from the stock), so a card is one tap.
    const deckOnly = [];
    for (const a of actions) {
      if (a.own || a.amount) continue;
      for (const v of variants(a)) if ((a.deck || cardFor(a, v).need) && !a.own) deckOnly.push([a, v]);
    }
    if (!this.pending && deckOnly.length === 1) this.arm(deckOnly[0][0], deckOnly[0][1], keyOf(deckOnly[0][0], deckOnly[0][1]));

    const buttons = [];
    let pickerFor = null;
    let ownBox = null;
    for (const a of actions) {
      if (a.own) {
        const box = this.ownCards(a, keyOf(a, {}), ctx);
        ownBox = box.node;
        buttons.push(...box.buttons);
        if (box.picking) pickerFor = box.picking;
        continue;
      }
      // A choice of seat made on the table itself (a battle's target: the seat views are
      // the buttons): the bar only says so.
      const onFelt = ctx.onFelt && a.amount && a.choices.find((c) => ctx.onFelt.has(c.name));
      if (onFelt) {
        const { min, max } = a.amount;
        const amount = max === null || max === min ? money(min) : `${money(min)}–${money(max)}`;
        buttons.push(el("span", { class: "prompt felt-choice", "data-action": a.type }, pickSeat(a.type, { seat: a.seat, amount })));
        continue;
      }
      for (const v of variants(a)) {
        const key = keyOf(a, v);
        const body = { type: a.type, ...a.fixed, ...v };
        const card = cardFor(a, v);
        if (card.fixed) body[a.card.name] = card.fixed;
        const needsDeck = Boolean(a.deck) || card.need;
        if (a.amount) {
          // One sentence ("Seat 3 raises to …"), then the amounts as quick chips, each
          // named by the whole sentence.
          const chips = this.chips(a, body, ctx);
          const group = [];
          for (const chip of chips) {
            const full = { ...body, ...chip.values };
            const sentence = verb(a.type, params(a, full)) + (chip.note ? ` · ${chip.note}` : "");
            const text = chips.length > 1 ? [money(chip.amount), chip.note].filter(Boolean).join(" · ") : sentence;
            let node;
            if (needsDeck) {
              const armed = this.pending && this.pending.key === `${key}|${chip.id}`;
              node = this.button(a, text, () => { this.arm(a, v, `${key}|${chip.id}`, full); ctx.rerender(); }, { pressed: armed, chip: chip.id });
              if (armed) pickerFor = this.pending;
            } else {
              node = this.button(a, text, () => this.fire(ctx, full), { chip: chip.id });
            }
            if (chips.length > 1) node.setAttribute("aria-label", sentence);
            group.push(node);
          }
          if (a.amount.max === null || a.amount.max > a.amount.min) group.push(this.otherAmount(a, body, needsDeck, key, v, ctx));
          const lead = chips.length > 1 ? el("span", { class: "lead" }, verb(a.type, params(a, body, { amount: "…" }))) : null;
          buttons.push(el("div", { class: "chip-group", "data-action": a.type }, lead, group));
        } else if (needsDeck) {
          const armed = this.pending && this.pending.key === key;
          const label = verb(a.type, params(a, body));
          // The one plan there is, armed from the start: its prompt says it all.
          const alone = armed && deckOnly.length === 1;
          if (!alone) {
            const node = this.button(a, label, () => { this.arm(a, v, key); ctx.rerender(); }, { pressed: armed });
            const choice = Object.values(v).find((x) => typeof x === "string" && !isCard(x));
            if (choice) node.dataset.choice = choice;
            buttons.push(node);
          }
          if (armed) pickerFor = this.pending;
        } else {
          const shown = card.shown ? cardLabel(card.shown) : body.card ? cardLabel(body.card) : undefined;
          let label = verb(a.type, params(a, body, shown ? { card: shown } : {}));
          // What the step makes, where the game says (a Paiute call's combination).
          if (typeof a.legal.combination === "string") label = `${label}: ${a.legal.combination}`;
          if (isCard(body.discard) && a.type !== "discard") label = `${label} · ${interpolate(gettext("discards %(card)s"), { card: cardLabel(body.discard) }, true)}`;
          const node = this.button(a, label, () => this.fire(ctx, body), { card: body.card || body.discard });
          const choice = Object.values(v).find((x) => typeof x === "string" && !isCard(x));
          if (choice) node.dataset.choice = choice;
          buttons.push(node);
        }
      }
    }
    // One row for what is said and the one-tap steps, one for the seat's own cards (with the
    // deal's prompt beside them), then the picker: the table keeps the rest of the screen.
    const row = el("div", { class: "buttons" }, lead, buttons);
    nodes.push(row);
    if (pickerFor) {
      const box = this.pickerBox(pickerFor, ctx, gone);
      // One card to pick: its prompt joins the first row (nothing to undo before it is sent).
      if (!ownBox && box.dataset.single === "true") {
        row.append(...box.querySelector(".deal-head").childNodes);
        box.querySelector(".deal-head").remove();
      }
      if (ownBox) {
        ownBox.querySelector(".prompt")?.remove();
        ownBox.append(...box.querySelector(".deal-head").childNodes);
        box.querySelector(".deal-head").remove();
      }
      if (ownBox) nodes.push(ownBox);
      nodes.push(box);
    } else if (ownBox) {
      nodes.push(ownBox);
    }
    return nodes;
  }

  button(a, label, onclick, { pressed = null, chip = null, card = null } = {}) {
    return el(
      "button",
      {
        type: "button",
        class: `act ${tone(a.type, Boolean(a.amount))}`,
        "data-action": a.type,
        "data-seat": a.seat ?? null,
        "data-chip": chip,
        "data-card": typeof card === "string" ? card : null,
        "aria-pressed": pressed === null ? null : String(pressed),
        onclick,
      },
      label,
    );
  }

  chips(a, body, ctx) {
    const { min, max, pot } = a.amount;
    const out = [];
    const add = (id, amount, note, values = null) => {
      if (amount === null || amount === undefined || Number.isNaN(amount)) return;
      if (amount < min || (max !== null && amount > max)) return;
      if (out.some((c) => c.amount === amount && !values)) return;
      out.push({ id, amount, note, values: values || { [a.amount.name]: amount } });
    };
    const last = ctx.last(a.seat, a.type);
    if (last && last[a.amount.name] !== undefined) {
      const values = { [a.amount.name]: last[a.amount.name] };
      for (const bonus of a.bonuses) if (last[bonus]) values[bonus] = last[bonus];
      const extras = a.bonuses.filter((b) => values[b]).map((b) => `${word(b)} ${money(values[b])}`);
      add("last", last[a.amount.name], [gettext("as last hand"), ...extras].join(" · "), values);
    }
    add("min", min, max === min ? null : gettext("min"));
    if (ctx.chip) add("chip", min + ctx.chip, null);
    if (pot !== undefined) add("pot", pot, gettext("pot"));
    if (max !== null) add("max", max, gettext("max"));
    return out;
  }

  // An unusual amount: typed in major units, checked against the bounds before sending.
  otherAmount(a, body, needsDeck, key, v, ctx) {
    const id = `other-${a.type}-${a.seat}`;
    const input = el("input", { id, type: "text", inputmode: "decimal", autocomplete: "off", class: "amount", placeholder: major(a.amount.min) });
    const fields = [el("label", { for: id }, word(a.amount.name)), input];
    const bonusInputs = a.bonuses.map((bonus) => {
      const bid = `${id}-${bonus}`;
      const node = el("input", { id: bid, type: "text", inputmode: "decimal", autocomplete: "off", class: "amount", placeholder: major(0) });
      fields.push(el("label", { for: bid }, word(bonus)), node);
      return [bonus, node];
    });
    const problem = el("p", { class: "problem", role: "alert", hidden: true });
    const form = el(
      "form",
      {
        class: "other",
        hidden: true,
        "data-action": a.type,
        onsubmit: (event) => {
          event.preventDefault();
          const amount = parseMajor(input.value);
          const { min, max } = a.amount;
          if (amount === null || amount < min || (max !== null && amount > max)) {
            problem.hidden = false;
            problem.textContent = max !== null
              ? interpolate(gettext("Enter an amount from %(min)s to %(max)s."), { min: money(min), max: money(max) }, true)
              : interpolate(gettext("Enter an amount of at least %(min)s."), { min: money(min) }, true);
            return;
          }
          const full = { ...body, [a.amount.name]: amount };
          for (const [bonus, node] of bonusInputs) {
            const value = node.value.trim() ? parseMajor(node.value) : 0;
            if (value === null) {
              problem.hidden = false;
              problem.textContent = interpolate(gettext("%(field)s: enter an amount such as %(example)s."), { field: word(bonus), example: major(a.amount.min) }, true);
              return;
            }
            if (value) full[bonus] = value;
          }
          if (needsDeck) {
            this.arm(a, v, `${key}|other`, full);
            ctx.rerender();
          } else {
            this.fire(ctx, full);
          }
        },
      },
      fields,
      el("button", { type: "submit", class: "act chips" }, gettext("Send")),
      problem,
    );
    const toggle = el(
      "button",
      {
        type: "button",
        class: "act other-toggle",
        "data-action": a.type,
        "data-seat": a.seat,
        "data-chip": "other",
        onclick: () => {
          form.hidden = !form.hidden;
          if (!form.hidden) input.focus();
        },
      },
      gettext("Other amount…"),
    );
    return el("span", { class: "other-wrap" }, toggle, form);
  }

  arm(a, v, key, body = null) {
    const base = body || { type: a.type, ...a.fixed, ...v };
    const cardName = a.deck ? a.deck.name : a.card.name;
    const count = a.deck ? a.deck.count ?? 1 : 1;
    this.pending = { key, body: base, cardName, count, single: !a.deck, picked: [], selected: [], seat: a.seat, type: a.type, label: verb(a.type, params(a, base)) };
  }

  // Send a step. What was armed is let go first, so the screen drawn with the answer arms
  // afresh; a refused step gets its cards back to correct them.
  async fire(ctx, body) {
    const saved = [this.pending, this.sel];
    this.pending = null;
    this.sel = null;
    const answer = await ctx.send(body);
    if (!answer) {
      [this.pending, this.sel] = saved;
      if (this.pending && this.pending.picked.length) this.pending.picked.pop();
      ctx.rerender();
    }
    return answer;
  }

  // Cards from the deck for the armed plan: a suit a row, sent with the last card.
  pickerBox(p, ctx, gone) {
    const need = p.paired ? p.selected.length : p.count;
    const prompt = need > 1 || p.paired
      ? interpolate(gettext("%(what)s: card %(n)s of %(count)s"), { what: p.label, n: Math.min(p.picked.length + 1, need), count: need }, true)
      : interpolate(gettext("%(what)s: tap the card"), { what: p.label }, true);
    const pick = async (card) => {
      if (p.picked.length >= need) return;
      p.picked.push(card);
      if (p.picked.length === need) {
        const body = { ...p.body };
        if (p.paired) {
          body[p.ownName] = [...p.selected];
          body[p.cardName] = [...p.picked];
        } else if (p.ownName) {
          body[p.ownName] = [...p.selected];
          body[p.cardName] = p.single ? p.picked[0] : [...p.picked];
        } else {
          body[p.cardName] = p.single ? p.picked[0] : [...p.picked];
        }
        await this.fire(ctx, body);
      } else {
        ctx.rerender();
      }
    };
    const single = need === 1 && !p.ownName;
    return el(
      "div",
      { class: "deal", "data-armed": p.type, "data-seat": p.seat ?? null, "data-single": String(single) },
      el(
        "div",
        { class: "deal-head" },
        el("span", { class: "prompt", "aria-live": "polite" }, prompt),
        single ? null : el("span", { class: "picked" }, p.picked.map((c) => face(c))),
        single ? null : el("button", { type: "button", class: "act undo", "data-action": "undo", disabled: !p.picked.length && !(this.sel && this.sel.cards.length && p.ownName), onclick: () => { if (p.picked.length) p.picked.pop(); else if (this.sel) this.sel.cards = this.sel.cards.slice(0, -1); ctx.rerender(); } }, gettext("Undo card")),
      ),
      picker({ deck: ctx.deck, gone, label: gettext("Cards"), disabled: p.paired && !p.selected.length, onPick: pick }),
    );
  }

  // A draw or a discard from the seat's own cards: tap the cards to throw away; then (a
  // draw) the new cards from the deck, or "stands pat" with none.
  ownCards(a, key, ctx) {
    if (!this.sel || this.sel.key !== key) this.sel = { key, cards: [] };
    const sel = this.sel;
    const exact = a.own.exact;
    const base = { type: a.type, ...a.fixed };
    const count = sel.cards.length;
    // The deck part of a draw: as many new cards as thrown away (or one bought card).
    const cardName = a.deck ? a.deck.name : a.card ? a.card.name : null;
    let picking = null;
    if (cardName && count && (exact === null || count === exact)) {
      const pkey = `${key}|${sel.cards.join(",")}`;
      if (!this.pending || this.pending.key !== pkey) {
        const paired = Boolean(a.deck && a.deck.count === null);
        this.pending = {
          key: pkey, body: base, ownName: a.own.name, selected: sel.cards, picked: [], seat: a.seat, type: a.type,
          cardName, paired, count: paired ? count : a.deck && a.deck.count ? a.deck.count : 1, single: !a.deck,
          label: verb(a.type, params(a, base, { count })),
        };
      }
      picking = this.pending;
    } else if (this.pending && this.pending.key.startsWith(`${key}|`)) {
      this.pending = null;
    }
    const locked = Boolean(picking && picking.picked.length);
    const toggles = a.own.options.map((card) => {
      const on = sel.cards.includes(card);
      return el(
        "button",
        {
          type: "button",
          class: `own${on ? " thrown" : ""}`,
          "data-card": card,
          "data-seat": a.seat,
          "aria-pressed": String(on),
          "aria-label": on ? interpolate(gettext("%(card)s: thrown away"), { card: cardLabel(card) }, true) : cardLabel(card),
          disabled: locked,
          onclick: () => {
            if (on) sel.cards = sel.cards.filter((c) => c !== card);
            else if (sel.cards.length < (exact ?? a.own.max)) sel.cards = [...sel.cards, card];
            ctx.rerender();
          },
        },
        face(card),
      );
    });
    const buttons = [];
    const hint = el("span", { class: "prompt" }, exact ? interpolate(gettext("Tap the %(count)s cards to throw away"), { count: exact }, true) : gettext("Tap the cards to throw away"));
    if (cardName && a.deck && a.deck.count === null) {
      if (!count) buttons.push(this.button(a, verb(a.type, params(a, base, { count: 0 })), () => this.fire(ctx, { ...base, [a.own.name]: [], [cardName]: [] })));
    } else if (!cardName) {
      const ready = count >= Math.max(1, a.own.least) && (exact === null || count === exact);
      const node = this.button(a, interpolate(ngettext("Seat %(seat)s throws away %(count)s card", "Seat %(seat)s throws away %(count)s cards", count), { seat: a.seat, count }, true), () => this.fire(ctx, { ...base, [a.own.name]: [...sel.cards] }));
      node.disabled = !ready;
      buttons.push(node);
    }
    const node = el("div", { class: "own-cards", role: "group", "aria-label": gettext("The seat's cards") }, hint, toggles);
    return { node, buttons, picking };
  }
}
