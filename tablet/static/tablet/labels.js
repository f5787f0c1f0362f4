// What a button says it does, in the dealer's language: "Seat 3 calls $2.00", "Seat 3 raises
// to $8.00", "Seat 2 stands pat". The action types are the games' (the API's `type`); an
// action type this list does not know still gets a plain label ("Seat 4: surrender $5.00").
// And the words of the presentation view (statuses, badges, wager and group names, phases):
// ids, shown through the catalog.

import { cardLabel } from "./cards.js";
import { money } from "./money.js";

const say = (template, params) => interpolate(template, params, true);

// p: {seat, amount, card, count, target, buyer, choice, hand}; amounts already formatted.
export function verb(type, p) {
  switch (type) {
    case "fold": return say(gettext("Seat %(seat)s folds"), p);
    case "check": return say(gettext("Seat %(seat)s checks"), p);
    case "call": return p.amount ? say(gettext("Seat %(seat)s calls %(amount)s"), p) : say(gettext("Seat %(seat)s calls"), p);
    case "bet": return say(gettext("Seat %(seat)s bets %(amount)s"), p);
    case "raise": return p.to ? say(gettext("Seat %(seat)s raises to %(amount)s"), p) : say(gettext("Seat %(seat)s raises %(amount)s"), p);
    case "draw":
      if (p.choice === "stock") return say(gettext("Seat %(seat)s draws from the stock"), p);
      if (p.choice === "discard") return p.card ? say(gettext("Seat %(seat)s takes %(card)s from the discard"), p) : say(gettext("Seat %(seat)s takes the discard"), p);
      if (p.count === 0) return say(gettext("Seat %(seat)s stands pat"), p);
      if (p.count) return say(ngettext("Seat %(seat)s draws %(count)s card", "Seat %(seat)s draws %(count)s cards", p.count), p);
      return say(gettext("Seat %(seat)s draws"), p);
    case "discard": return p.card ? say(gettext("Seat %(seat)s discards %(card)s"), p) : say(gettext("Seat %(seat)s discards"), p);
    case "deal": return p.hand !== undefined && p.hand !== null ? say(gettext("Deal to seat %(seat)s, hand %(hand1)s"), { ...p, hand1: p.hand + 1 }) : say(gettext("Deal to seat %(seat)s"), p);
    case "wager": return say(gettext("Seat %(seat)s antes %(amount)s"), p);
    case "stake": return say(gettext("Seat %(seat)s stakes %(amount)s"), p);
    case "shoot": return say(gettext("Seat %(seat)s shoots %(amount)s"), p);
    case "no_shoot": return say(gettext("Seat %(seat)s does not shoot"), p);
    case "split": return say(gettext("Seat %(seat)s splits"), p);
    case "buy": return p.amount ? say(gettext("Seat %(seat)s buys for %(amount)s"), p) : say(gettext("Seat %(seat)s buys a card"), p);
    case "twist": return say(gettext("Seat %(seat)s twists"), p);
    case "stick": return say(gettext("Seat %(seat)s sticks"), p);
    case "stand": return say(gettext("Seat %(seat)s stands"), p);
    case "stay": return say(gettext("Seat %(seat)s stays"), p);
    case "battle": return say(gettext("Seat %(seat)s attacks seat %(target)s for %(amount)s"), p);
    case "sell_bank": return say(gettext("Seat %(seat)s sells the bank to seat %(buyer)s for %(amount)s"), p);
    case "accept": return say(gettext("Seat %(seat)s takes the bank with %(amount)s"), p);
    case "decline": return say(gettext("Seat %(seat)s declines the bank"), p);
    case "choose_banker": return say(gettext("Seat %(seat)s banks first"), p);
    case "blind_choice": return say(gettext("Seat %(seat)s: %(choice)s"), { ...p, choice: word(p.choice) });
    default: {
      const action = word(type);
      if (p.amount) return say(gettext("Seat %(seat)s: %(action)s %(amount)s"), { ...p, action });
      return say(gettext("Seat %(seat)s: %(action)s"), { ...p, action });
    }
  }
}

// A choice made by tapping a seat on the table (a battle's target): what the bar says, and
// what the seat's own box says.
export function pickSeat(type, p) {
  if (type === "battle") return interpolate(gettext("Seat %(seat)s attacks: tap the seat (%(amount)s)"), p, true);
  return interpolate(gettext("Seat %(seat)s: tap the seat (%(amount)s)"), p, true);
}

export function onSeat(type, p) {
  if (type === "battle") return interpolate(gettext("Attack for %(amount)s"), p, true);
  return verb(type, p);
}

// What kind of step an action is, for its colour: giving up (fold, decline), standing
// (check, stick, stay: no chips, no cards), chips, or cards.
const GIVE_UP = new Set(["fold", "decline", "no_shoot"]);
const STAND = new Set(["check", "stick", "stand", "stay", "choose_banker", "blind_choice"]);
const CARDS = new Set(["deal", "draw", "discard", "twist", "split"]);
export function tone(type, withAmount) {
  if (GIVE_UP.has(type)) return "give-up";
  if (STAND.has(type)) return "stand";
  if (CARDS.has(type) && !withAmount) return "cards";
  return "chips";
}

// An id of the presentation view or the API ("small_blind", "to_act", "predraw") in words.
export function word(id) {
  if (id === null || id === undefined) return "";
  return gettext(String(id).replaceAll("_", " "));
}

export function amountText(minor) {
  return money(minor);
}

export function cardText(card) {
  return card ? cardLabel(card) : "";
}
