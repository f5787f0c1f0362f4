// The dealer tablet: log in, pick the table you deal, and run it by touch. Everything comes
// from the REST API: the game's state between hands, its legal between-hand actions and its
// proposal for the next opening (GET /tables/{id}/game/), the hand's state with its
// presentation view and legal actions (GET /hands/{id}/), and the game's schemas
// (GET /games/). No game is named here.
//
// A screen is the table drawn as a table (table.js) above a fixed action bar
// (data-role="actions") holding what the dealer does next: the seat to act's actions
// (bar.js), the next hand's cards (opening.js), settling.

import { Api, ApiError, NotSent, Outbox } from "./api.js";
import { ActionBar, analyse } from "./bar.js";
import { el, face, isCard, picker } from "./cards.js";
import { ChangeScreens } from "./change.js";
import { CustodyScreens } from "./custody.js";
import { onSeat, word } from "./labels.js";
import { money, parseMajor, major, signed } from "./money.js";
import { Opening } from "./opening.js";
import { felt, middleOf } from "./table.js";
import "./words.js";

const root = document.getElementById("app");
const barRoot = document.getElementById("bar");
const titleRoot = document.getElementById("title");
const navRoot = document.getElementById("nav");
const api = new Api(root.dataset.api);
const outbox = new Outbox(api, showOutbox);
const bar = new ActionBar();
const view = { games: {}, me: null, error: null, focus: null, lastActed: null, result: null, opening: null, manage: false };
const LAST = "tablet.screen";
// Asking for a limit or rule change (change.js): from the table and from a hand in play.
const changes = new ChangeScreens({ api, outbox, go, nav, games: view.games, me: () => view.me, problems: problemList });
// Chip custody (custody.js): the table's counted opener and closer, its fills and credits.
const custody = new CustodyScreens({ api, outbox, go, nav, me: () => view.me, problems: problemList, render: () => render(), painted: () => painted() });

function showOutbox(items) {
  const box = document.getElementById("outbox");
  const unsent = items.filter((item) => item.state === "unsent");
  box.textContent = unsent.length ? gettext("Not sent yet: the tablet keeps trying") : items.length ? gettext("Sending…") : "";
  box.className = unsent.length ? "outbox unsent" : "outbox";
  document.body.toggleAttribute("data-busy", items.length > 0);
}

function remember(next) {
  localStorage.setItem(LAST, JSON.stringify(next));
}

// A problem in the dealer's words: the API's messages (already in the dealer's language),
// without the field paths.
function problemList(error) {
  if (error instanceof NotSent) return [gettext("Not sent yet: the tablet keeps trying")];
  if (!(error instanceof ApiError)) return [gettext("Something went wrong; try again.")];
  const errors = (error.body && error.body.errors) || [];
  const lines = errors.length ? errors.map((e) => e.message) : [error.body && error.body.detail ? error.body.detail : gettext("The server refused the request.")];
  return [...new Set(lines)];
}

function alertBox() {
  if (!view.error) return null;
  return el("div", { role: "alert", class: "alert" }, view.error.map((line) => el("p", {}, line)));
}

// Two taps for what cannot be taken back: the first arms the button ("Tap again to …"),
// the second acts; it disarms itself after a few seconds. `ready()`, when given, is asked
// first: false keeps the button unarmed (it says what is missing itself).
function confirmButton(label, again, action, attrs = {}, ready = null) {
  let timer = null;
  const node = el(
    "button",
    {
      type: "button",
      ...attrs,
      onclick: async () => {
        if (ready && !ready()) return;
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

// One write: the intent keeps its key until the server answers; a dropped connection is
// retried by the outbox with the same key, and the screen stays as it is meanwhile.
async function write(path, body, next = null) {
  view.error = null;
  working(1);
  try {
    const answer = await outbox.send(path, body);
    if (next && answer) {
      screen = next(answer);
      remember(screen);
    }
    return answer;
  } catch (error) {
    if (error instanceof NotSent) return null; // the outbox marker says so; it retries
    view.error = problemList(error);
    return null;
  } finally {
    await render();
    working(-1);
  }
}

// What the tablet is doing (writes and paints in flight): body[data-ready] is "true" only
// when nothing is, so a test (and a dealer's eye) reads a settled screen.
let inFlight = 0;
function working(delta) {
  inFlight += delta;
  document.body.dataset.ready = String(inFlight === 0);
}

// ------------------------------------------------------------------------- helpers

function takenCards(state) {
  const taken = new Set();
  const walk = (value) => {
    if (isCard(value)) taken.add(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") Object.entries(value).forEach(([k, v]) => k !== "deck" && k !== "legal_actions" && walk(v));
  };
  walk(state);
  return taken;
}

const LAST_WAGER = "tablet.last";
function lastWagers() {
  return JSON.parse(localStorage.getItem(LAST_WAGER) || "{}");
}
function lastWager(tableId, seat, type) {
  return lastWagers()[`${tableId}/${seat}/${type}`] || null;
}
function keepWager(tableId, body) {
  const amounts = Object.fromEntries(Object.entries(body).filter(([k, v]) => typeof v === "number" && k !== "seat" && k !== "hand"));
  if (!Object.keys(amounts).length || body.seat === undefined) return;
  const all = lastWagers();
  all[`${tableId}/${body.seat}/${body.type}`] = amounts;
  localStorage.setItem(LAST_WAGER, JSON.stringify(all));
}

function names(table) {
  return Object.fromEntries(table.seats.map((seat) => [seat.number, seat.player]));
}

function setTitle(...parts) {
  titleRoot.textContent = parts.filter(Boolean).join(" · ");
}

// The way out (to all tables) and the screen's own menu, in the top line.
function nav(extra = []) {
  return [el("button", { type: "button", onclick: () => go({}) }, gettext("All tables")), extra];
}

// ------------------------------------------------------------------------- screens

function loginScreen() {
  const user = el("input", { id: "username", name: "username", autocomplete: "username", required: true });
  const password = el("input", { id: "password", name: "password", type: "password", autocomplete: "current-password", required: true });
  const form = el(
    "form",
    {
      class: "panel login",
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          await api.login(user.value, password.value);
          view.error = null;
        } catch (error) {
          view.error = problemList(error);
        }
        await render();
      },
    },
    el("h1", {}, gettext("Log in")),
    alertBox(),
    el("div", { class: "field" }, el("label", { for: "username" }, gettext("Username")), user),
    el("div", { class: "field" }, el("label", { for: "password" }, gettext("Password")), password),
    el("button", { type: "submit", class: "primary" }, gettext("Log in")),
  );
  setTitle();
  return { main: [form] };
}

async function tablesScreen() {
  const tables = (await api.get("tables/?limit=200")).results;
  const mine = tables.filter((table) => table.dealer === view.me.username || view.me.roles.includes("floor_manager"));
  setTitle();
  return {
    main: [
      el("h1", {}, gettext("Your tables")),
      alertBox(),
      el(
        "ul",
        { class: "tiles" },
        mine.map((table) =>
          el(
            "li",
            {},
            el(
              "button",
              { type: "button", class: "tile", onclick: () => go({ table: table.id }) },
              el("strong", {}, table.name),
              el("span", {}, view.games[table.game]?.name || table.game),
              el("span", {}, word(table.status)),
            ),
          ),
        ),
      ),
    ],
  };
}

// The table between hands: the seats as they sit, the last hand's result, and in the bar
// the between-hand actions and the next hand's deal. While the dealer picks the cards it
// repaints from what it fetched.
async function tableScreen(id) {
  const [table, game, kept] = await Promise.all([api.get(`tables/${id}/`), api.get(`tables/${id}/game/`), custody.summary(id)]);
  if (game.hand_open) {
    const hands = (await api.get(`tables/${id}/hands/?limit=1`)).results;
    if (hands.length && hands[0].status === "open") {
      screen = { table: id, hand: hands[0].id };
      remember(screen);
      return handScreen(id, hands[0].id);
    }
  }
  view.tableCache = { id, paint: () => paintFrom(table, game, kept) };
  return paintFrom(table, game, kept);
}

function paintFrom(table, game, kept = null) {
  remember({ table: table.id });
  const spec = view.games[table.game];
  setTitle(table.name, spec.name);
  const schema = spec.schemas.open || {};
  const openProps = schema.properties || {};
  const riding = new Set(game.actions.filter((legal) => openProps[legal.type] && openProps[legal.type].type === "object").map((legal) => legal.type));
  const signature = JSON.stringify([table.id, game.next_seats, game.proposal || {}, Object.keys(openProps)]);
  if (!view.opening || view.opening.signature !== signature) {
    view.opening = new Opening(schema, game.next_seats, game.proposal || {}, riding);
    view.opening.signature = signature;
  }
  return paintTable(table, game, spec, view.opening, riding, kept);
}

function tableParties(table, game, opening) {
  const state = game.state || {};
  const roles = {};
  const mark = (seat, badge) => {
    const number = seat && typeof seat === "object" ? seat.seat : seat;
    if (typeof number === "number") roles[number] = [...(roles[number] || []), badge];
  };
  mark(state.designated_player, "designated_player");
  mark(state.offer_seat, "offered");
  mark(state.banker, "banker");
  mark(state.button, "button");
  mark(state.next_dealer, "deals_next");
  const markers = state.markers || {};
  const result = view.result && view.result.table === table.id ? view.result : null;
  const nets = result ? Object.fromEntries([...result.result.seats].map((s) => [s.seat, s.net])) : {};
  return table.seats
    .filter((seat) => seat.player || table.seats.length <= 7)
    .map((seat) => {
      const dealt = opening && game.next_seats.includes(seat.number) ? opening.seatCards(seat.number) : { cards: [], groups: [] };
      const amount = opening ? opening.amountOf(seat.number) : null;
      return {
        seat: seat.number,
        name: seat.player || null, // an empty seat says so by its status
        status: !seat.player ? "empty" : seat.sitting_out ? "out" : "in",
        badges: [...(roles[seat.number] || []), ...(markers[seat.number] || [])],
        cards: dealt.cards,
        groups: dealt.groups,
        stack: amount ? amount.target[amount.key] : null,
        net: nets[seat.number],
        wagers: [],
      };
    });
}

function paintTable(table, game, spec, opening, riding, kept = null) {
  const tableId = table.id;
  const parties = tableParties(table, game, opening);
  const current = opening.current;
  const result = view.result && view.result.table === tableId ? view.result : null;
  const facts = [
    el("span", { class: "phase" }, result ? interpolate(gettext("Hand %(n)s settled"), { n: result.number }, true) : gettext("Between hands")),
    ...Object.entries(table.limits)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => el("span", { class: "limit" }, `${word(k)} ${typeof v === "number" ? money(v) : word(v)}`)),
  ];
  const middle = [
    el("div", { class: "facts-row" }, facts),
    opening.tableCards().length ? el("div", { class: "facts-row" }, opening.tableCards().map((c) => face(c))) : null,
    opening.amounts.filter((a) => a.seat === null).map((a) => el("div", { class: "facts-row table-amount" }, el("span", { class: "pot" }, `${word(a.key)} ${money(a.target[a.key])}`), stackControl(opening, { seat: null }, a.key))),
    result ? resultSummary(result.result) : null,
    changes.button(tableId),
  ];
  const menu = nav([
    el("button", { type: "button", "aria-expanded": String(view.manage), onclick: () => { view.manage = !view.manage; render({ noFetch: true }); } }, gettext("Seats and players")),
    custody.button(tableId, kept),
  ]);
  const main = [
    alertBox(),
    view.manage ? seatsPanel(table) : felt(parties, middle, { focus: current ? current.seat : null, extra: (party) => stackControl(opening, party) }),
  ];
  if (table.status !== "open") return { nav: menu, main, bar: custody.closedBar(tableId, kept) || [el("p", { class: "prompt" }, gettext("The table is closed."))] };

  // Between-hand actions, each a button; one the opening also takes rides in it.
  const barNodes = [];
  const schemas = spec.schemas.table_actions || {};
  const buttons = [];
  const rides = [];
  for (const legal of game.actions) {
    const a = analyse(schemas[legal.type], legal, legal.seat, null);
    if (riding.has(legal.type)) {
      rides.push(a);
      continue;
    }
    const ctx = { chip: table.smallest_chip, deck: game.deck, taken: new Set(), last: (seat, type) => lastWager(tableId, seat, type), send: (body) => write(`tables/${tableId}/game/actions/`, body), rerender: () => render() };
    buttons.push(...bar.render([a], null, ctx).flatMap((node) => [...node.childNodes]));
  }
  const ready = opening.ready;
  const openWith = async (extra) => {
    if (outbox.pending) return;
    view.result = null;
    const answer = await write(`tables/${tableId}/hands/`, opening.body(extra), (hand) => ({ table: tableId, hand: hand.id }));
    if (answer) view.opening = null;
  };
  if (!opening.cardsDone && current) {
    const taken = new Set(opening.picked());
    const prompt = current.seat === null
      ? interpolate(gettext("The %(what)s: tap the card"), { what: word(current.field) }, true)
      : interpolate(gettext("Seat %(seat)s · %(what)s: tap the card (%(n)s of %(count)s)"), { seat: current.seat, what: word(current.field), n: opening.filled + 1, count: opening.slots.length }, true);
    barNodes.push(
      el(
        "div",
        { class: "deal", "data-armed": "opening", "data-seat": current.seat },
        el(
          "div",
          { class: "deal-head" },
          el("span", { class: "prompt", "aria-live": "polite" }, prompt),
          el("button", { type: "button", class: "act undo", "data-action": "undo", disabled: !opening.filled, onclick: () => { opening.undo(); render(); } }, gettext("Undo card")),
        ),
        pickerFor(game.deck, taken, (card) => { opening.fill(card); repaint(); }),
      ),
    );
  } else if (opening.slots.length) {
    barNodes.push(el("div", { class: "deal-head" }, el("span", { class: "prompt" }, gettext("Every card is in.")), el("button", { type: "button", class: "act undo", "data-action": "undo", onclick: () => { opening.undo(); render(); } }, gettext("Undo card"))));
  }
  const missing = opening.missingAmounts;
  if (missing.length) {
    const seats = missing.filter((m) => m.seat !== null).map((m) => m.seat);
    if (seats.length) barNodes.push(el("p", { class: "prompt warn" }, interpolate(gettext("Enter the stack of seat %(seats)s (tap its stack)."), { seats: seats.join(", ") }, true)));
  }
  // Opening: with a riding action (the offered seat takes the bank), each of its chips opens
  // the hand with it; otherwise one button.
  const openButtons = [];
  for (const a of rides) {
    const ctx = {
      chip: table.smallest_chip, deck: game.deck, taken: new Set(), last: (seat, type) => lastWager(tableId, seat, type),
      send: (body) => { const { type, ...rest } = body; return openWith({ [type]: rest }); },
      rerender: () => render(),
    };
    for (const node of bar.render([a], null, ctx).flatMap((n) => [...n.childNodes])) {
      const prefix = (text) => interpolate(gettext("Open hand: %(what)s"), { what: text }, true);
      const lead = node.querySelector && node.querySelector(".lead");
      if (lead) lead.textContent = prefix(lead.textContent);
      for (const button of node.tagName === "BUTTON" ? [node] : node.querySelectorAll("button")) {
        if (button.dataset.chip && button.dataset.chip !== "other") {
          if (button.hasAttribute("aria-label")) button.setAttribute("aria-label", prefix(button.getAttribute("aria-label")));
          else button.textContent = prefix(button.textContent);
        }
        if (!ready) button.disabled = true;
      }
      openButtons.push(node);
    }
  }
  if (!rides.length) {
    openButtons.push(el("button", { type: "button", class: "act chips open", "data-action": "open", disabled: !ready, onclick: () => openWith({}) }, gettext("Open hand")));
  }
  barNodes.push(el("div", { class: "buttons" }, openButtons, buttons));
  return { nav: menu, main, bar: barNodes };

  function repaint() {
    render({ noFetch: true });
  }
}

function pickerFor(deck, taken, onPick) {
  return picker({ deck, gone: (card) => taken.has(card), label: gettext("Cards"), onPick });
}

// A seat's stack before the hand: shown, tapped to correct (in major units).
function stackControl(opening, party, key = null) {
  const amount = opening ? opening.amountOf(party.seat, key) : null;
  if (!amount) return null;
  const id = `amount-${party.seat ?? amount.key}`;
  const what = party.seat === null ? word(amount.key) : gettext("stack");
  if (view.editing === (party.seat ?? amount.key)) {
    const input = el("input", { id, type: "text", inputmode: "decimal", autocomplete: "off", value: amount.target[amount.key] === null ? "" : major(amount.target[amount.key]) });
    const problem = el("span", { class: "problem", role: "alert", hidden: true });
    setTimeout(() => input.focus(), 0);
    return el(
      "form",
      {
        class: "stack-edit",
        onsubmit: (event) => {
          event.preventDefault();
          const value = parseMajor(input.value);
          if (value === null) {
            problem.hidden = false;
            problem.textContent = interpolate(gettext("Enter the %(what)s as an amount, e.g. 250.00."), { what }, true);
            return;
          }
          amount.target[amount.key] = value;
          view.editing = null;
          render({ noFetch: true });
        },
      },
      el("label", { for: id }, party.seat === null ? what : interpolate(gettext("Stack of seat %(seat)s"), { seat: party.seat }, true)),
      input,
      el("button", { type: "submit", class: "act chips" }, gettext("OK")),
      problem,
    );
  }
  const known = amount.target[amount.key] !== null;
  return el(
    "button",
    {
      type: "button",
      class: `stack-button${known ? "" : " missing"}`,
      "data-action": "stack",
      "data-seat": party.seat,
      "aria-label": known ? (party.seat === null ? interpolate(gettext("Correct the %(what)s"), { what }, true) : interpolate(gettext("Correct the stack of seat %(seat)s"), { seat: party.seat }, true)) : null,
      onclick: () => { view.editing = party.seat ?? amount.key; render({ noFetch: true }); },
    },
    known ? gettext("Correct") : party.seat === null ? interpolate(gettext("Enter the %(what)s"), { what }, true) : gettext("Enter stack"),
  );
}

function resultSummary(result) {
  return el(
    "details",
    { class: "result" },
    el("summary", {}, `${gettext("Rake")} ${money(result.rake)} · ${gettext("Why")}`),
    el("ol", { class: "explanation" }, (result.explanation_text || result.explanation).map((line) => el("li", {}, line))),
  );
}

// Seat players, sit them out or back in, or empty the seat (two taps).
function seatsPanel(table) {
  return el(
    "section",
    { class: "panel", "aria-label": gettext("Seats and players") },
    el("h2", {}, gettext("Seats and players")),
    el("ol", { class: "seat-list" }, table.seats.map((seat) => el("li", {}, el("strong", {}, interpolate(gettext("Seat %(seat)s"), { seat: seat.number }, true)), " ", seat.player || gettext("empty seat"), seatControls(table, seat)))),
  );
}

function seatControls(table, seat) {
  const path = `tables/${table.id}/seats/${seat.number}/`;
  if (!seat.player) {
    const name = el("input", { id: `player-${seat.number}`, name: "player", autocomplete: "off", placeholder: gettext("Player's name") });
    return el(
      "form",
      {
        class: "seat-form",
        onsubmit: async (event) => {
          event.preventDefault();
          if (name.value.trim()) await write(path, { player: name.value.trim(), sitting_out: false });
        },
      },
      el("label", { for: `player-${seat.number}`, class: "visually-hidden" }, interpolate(gettext("Player for seat %(seat)s"), { seat: seat.number }, true)),
      name,
      el("button", { type: "submit" }, gettext("Seat player")),
    );
  }
  return el(
    "div",
    { class: "seat-form" },
    el("button", { type: "button", onclick: () => write(path, { player: seat.player, sitting_out: !seat.sitting_out }) }, seat.sitting_out ? gettext("Back in") : gettext("Sit out")),
    confirmButton(gettext("Player leaves"), interpolate(gettext("Tap again: %(player)s leaves seat %(seat)s"), { player: seat.player, seat: seat.number }, true), () => write(path, { player: "", sitting_out: false }), { class: "give-up", "data-action": "leave", "data-seat": seat.number }),
  );
}

// While the floor decides a request on the hand (a void, a large payout), the hand records
// nothing: the screen says so, looks again every few seconds, and lets whoever asked take it
// back.
const RECHECK_MS = 5000;
let recheck = null;

async function waitingScreen(tableId, hand, spec) {
  const request = hand.waiting_for[0];
  const words = { who: request.requested_by, reason: request.reason };
  let asked;
  let proposed = null;
  let signatures = null;
  if (request.kind === "payout") {
    // The request's reason is the server's own wording (amounts in minor units): the table
    // below says what signing it pays, in money; the tiers may ask for several people.
    asked = gettext("The settlement is above the sign-off limit: a floor manager signs it before it is paid.");
    const approval = await api.get(`approvals/${request.id}/`);
    proposed = approval.detail.result;
    if (approval.signoff) signatures = interpolate(gettext("Signatures: %(signed)s of %(needed)s"), { signed: approval.signoff.signed, needed: approval.signoff.needed }, true);
  } else {
    asked = interpolate(gettext("%(who)s asked to void this hand: %(reason)s"), words, true);
  }
  clearTimeout(recheck);
  recheck = setTimeout(() => {
    if (screen.hand === hand.id && !outbox.pending) render();
  }, RECHECK_MS);
  const mine = request.requested_by === view.me.username;
  setTitle(interpolate(gettext("Hand %(n)s"), { n: hand.number }, true), spec.name);
  return {
    nav: nav(),
    main: [
      alertBox(),
      el(
        "section",
        { class: "panel waiting", role: "status", "aria-label": gettext("Waiting for the floor") },
        el("h2", {}, gettext("Waiting for the floor")),
        el("p", {}, asked),
        signatures ? el("p", { class: "signatures" }, signatures) : null,
        el("p", {}, gettext("Nothing can be recorded on the hand until a floor manager decides.")),
        proposed ? settlementTable(proposed) : null,
      ),
    ],
    bar: [
      el(
        "div",
        { class: "buttons" },
        el("button", { type: "button", class: "act stand", onclick: () => render() }, gettext("Check again")),
        mine ? el("button", { type: "button", id: "withdraw", class: "act give-up", onclick: async () => { if (!outbox.pending) await write(`approvals/${request.id}/withdraw/`, {}); } }, gettext("Withdraw the request")) : null,
      ),
    ],
  };
}

function handParties(state, table, preview) {
  const pres = state.presentation;
  const who = names(table);
  const nets = preview ? Object.fromEntries([...preview.seats, ...(preview.house ? [preview.house] : [])].map((s) => [s.seat, s.net])) : {};
  return [...pres.seats, ...(pres.house ? [{ ...pres.house, house: true }] : [])].map((party) => ({ ...party, name: party.house ? null : who[party.seat], net: nets[party.seat] }));
}

// Which seat the bar serves: the one the hand waits for; where several may act (wagers,
// deals in any order), the one the dealer tapped, else the next after the last one that
// acted, in the table's order, doing the same kind of step (a round of wagers, then of
// deals), else the seat of the first legal action.
function actingSeat(bySeat, order, to_act, legal) {
  if (to_act !== null && to_act !== undefined && bySeat.has(to_act)) return to_act;
  if (view.focus !== null && bySeat.has(view.focus)) return view.focus;
  if (!bySeat.size) return null;
  if (view.lastActed !== null) {
    const same = order.filter((seat) => (bySeat.get(seat) || []).some((a) => a.type === view.lastType));
    const after = same.find((seat) => order.indexOf(seat) > order.indexOf(view.lastActed));
    if (after !== undefined) return after;
    if (same.length) return same[0];
  }
  return legal[0].seat ?? [...bySeat.keys()][0];
}

async function handScreen(tableId, handId, cached = null) {
  const [hand, table] = cached ? [cached.hand, cached.table] : await Promise.all([api.get(`hands/${handId}/`), api.get(`tables/${tableId}/`)]);
  if (hand.status !== "open") return settledScreen(tableId, hand, table);
  const spec = view.games[hand.game];
  const state = hand.state;
  remember({ table: tableId, hand: handId });
  if (hand.waiting_for.length) return waitingScreen(tableId, hand, spec);
  if (view.handId !== handId) {
    view.handId = handId;
    view.focus = null;
    view.lastActed = null;
    bar.reset();
  }
  let preview = cached ? cached.preview : null;
  if (state.complete && !cached) {
    try {
      preview = await api.get(`hands/${handId}/preview/`);
    } catch (error) {
      preview = null;
    }
  }
  view.cache = { hand, table, preview };
  setTitle(interpolate(gettext("Hand %(n)s"), { n: hand.number }, true), table.name, spec.name);
  const pres = state.presentation;
  const parties = handParties(state, table, preview);
  const order = parties.map((p) => p.seat);
  const bySeat = new Map();
  for (const legal of state.legal_actions) {
    const seat = legal.seat ?? pres.to_act ?? state.to_act;
    bySeat.set(seat, [...(bySeat.get(seat) || []), legal]);
  }
  const seat = actingSeat(bySeat, order, pres.to_act ?? state.to_act, state.legal_actions);
  const party = parties.find((p) => p.seat === seat);
  const analysed = (bySeat.get(seat) || []).map((legal) => analyse(spec.schemas.actions[legal.type], legal, seat, party));
  const send = async (body) => {
    if (outbox.pending) return null;
    const before = [view.lastActed, view.lastType, view.focus];
    view.lastActed = body.seat ?? seat;
    view.lastType = body.type;
    view.focus = null;
    const answer = await write(`hands/${handId}/actions/`, body);
    if (answer) keepWager(tableId, body);
    else [view.lastActed, view.lastType, view.focus] = before;
    return answer;
  };
  const repaint = () => render({ noFetch: true });
  const ctx = { chip: table.smallest_chip, deck: state.deck || [], taken: takenCards(state), last: (s, type) => lastWager(tableId, s, type), send, rerender: repaint, onFelt: new Set(["target"]) };
  // Seats that can act too are tappable (the bar then serves them); a battle's targets
  // attack at the least amount.
  const selectable = new Set([...bySeat.keys()].filter((s) => s !== seat));
  const targets = new Map();
  for (const a of analysed) {
    const choice = a.choices.find((c) => c.name === "target");
    if (choice && a.amount) for (const target of choice.options) targets.set(target, { ...a, target });
  }
  for (const target of targets.keys()) selectable.add(target);
  const onTap = (tapped) => {
    const attack = targets.get(tapped);
    if (attack) {
      send({ type: attack.type, ...attack.fixed, target: tapped, [attack.amount.name]: attack.amount.min });
      return;
    }
    view.focus = tapped;
    bar.reset();
    repaint();
  };
  const extra = (p) => {
    const attack = targets.get(p.seat);
    if (!attack) return null;
    return el("span", { class: "target-label", "aria-label": null }, onSeat(attack.type, { seat, target: p.seat, amount: money(attack.amount.min) }));
  };
  const middle = middleOf(pres, [preview ? el("div", { class: "facts-row" }, el("span", { class: "pot" }, `${gettext("Rake")} ${money(preview.rake)}`)) : null, changes.button(tableId, handId)]);
  const menu = nav([voidForm(handId)]);
  const main = [
    felt(parties, middle, { focus: state.complete ? null : seat, selectable: state.complete ? new Set() : selectable, onTap, extra }),
  ];
  const barNodes = [alertBox()];
  if (state.complete) {
    barNodes.push(
      el("p", { class: "prompt" }, preview ? gettext("The hand is complete: check the result on the table, then settle.") : gettext("The hand is complete.")),
      el(
        "div",
        { class: "buttons" },
        confirmButton(gettext("Settle hand"), gettext("Tap again to settle"), async () => {
          if (outbox.pending) return;
          const answer = await write(`hands/${handId}/settle/`, {});
          if (answer && answer.settlement) {
            view.result = { table: tableId, number: hand.number, result: answer.result || answer.settlement_result || (await settlementOf(answer)) };
            screen = { table: tableId };
            remember(screen);
            await render();
          }
        }, { class: "act chips primary", id: "settle", "data-action": "settle" }),
      ),
    );
  } else if (seat !== null && seat !== undefined) {
    const head = el("span", { class: "bar-head" }, el("strong", {}, party && party.name ? `${interpolate(gettext("Seat %(seat)s"), { seat }, true)} · ${party.name}` : seat === 0 ? gettext("House") : interpolate(gettext("Seat %(seat)s"), { seat }, true)), el("span", { class: "muted" }, word(pres.phase)));
    barNodes.push(...bar.render(analysed, party, ctx, head));
  } else {
    barNodes.push(el("p", { class: "prompt" }, gettext("Nothing to record: waiting.")));
  }
  return { nav: menu, main, bar: barNodes };
}

async function settlementOf(answer) {
  if (answer.result) return answer.result;
  const found = await api.get(`settlements/${answer.settlement}/`);
  return found.result;
}

// The void request: a reason, then two taps. What is typed, whether the form is open and its
// problem survive a repaint (the screen redraws on every answer).
function voidForm(handId) {
  const state = view.voiding && view.voiding.hand === handId ? view.voiding : (view.voiding = { hand: handId, open: false, reason: "", problem: null });
  const reason = el("input", {
    id: "void-reason",
    name: "reason",
    required: true,
    autocomplete: "off",
    value: state.reason,
    "aria-invalid": state.problem ? "true" : null,
    "aria-describedby": state.problem ? "void-problem" : null,
    oninput: () => {
      state.reason = reason.value;
      if (state.problem && state.reason.trim()) {
        // the reason is there now: the problem goes, without a redraw under the typing
        state.problem = null;
        reason.removeAttribute("aria-invalid");
        reason.removeAttribute("aria-describedby");
        document.getElementById("void-problem")?.remove();
      }
    },
  });
  // Without a reason the first tap says so next to the field instead of arming.
  const hasReason = () => {
    state.problem = state.reason.trim() ? null : gettext("Give a reason for the void.");
    if (state.problem) render({ noFetch: true });
    return !state.problem;
  };
  const send = confirmButton(gettext("Ask the floor to void the hand"), gettext("Tap again to ask for the void"), async () => {
    if (!outbox.pending && (await write(`hands/${handId}/void/`, { reason: state.reason.trim() }))) view.voiding = null;
  }, { class: "give-up", id: "void-send", "data-action": "void" }, hasReason);
  const box = el(
    "details",
    { class: "void", open: state.open, ontoggle: () => { state.open = box.open; } },
    el("summary", {}, gettext("Void request")),
    el(
      "div",
      { class: "void-form" },
      el("p", {}, gettext("A floor manager decides; the hand waits until then.")),
      el("label", { for: "void-reason" }, gettext("Reason")),
      reason,
      state.problem ? el("p", { class: "problem", id: "void-problem", role: "alert" }, state.problem) : null,
      send,
    ),
  );
  return box;
}

function settlementTable(result) {
  const parties = [...result.seats, ...(result.house ? [result.house] : [])];
  return el(
    "div",
    { class: "settlement" },
    el(
      "table",
      {},
      el("thead", {}, el("tr", {}, [gettext("Seat"), gettext("Role"), gettext("Lines"), gettext("Rake"), gettext("Net")].map((h) => el("th", { scope: "col" }, h)))),
      el(
        "tbody",
        {},
        parties.map((seat) =>
          el(
            "tr",
            { "data-seat": seat.seat },
            el("td", {}, seat.seat === 0 ? gettext("house") : String(seat.seat)),
            el("td", {}, word(seat.role)),
            el("td", {}, seat.lines.map((line) => el("div", {}, `${word(line.wager)}: ${signed(line.amount)}`))),
            el("td", {}, money(seat.rake)),
            el("td", { class: "net" }, signed(seat.net)),
          ),
        ),
      ),
    ),
    el("p", {}, `${gettext("Rake")}: ${money(result.rake)}`),
    el("ol", { class: "explanation" }, (result.explanation_text || result.explanation).map((line) => el("li", {}, line))),
  );
}

async function settledScreen(tableId, hand, table) {
  let result = null;
  if (hand.settlement) result = (await api.get(`settlements/${hand.settlement}/`)).result;
  const spec = view.games[hand.game];
  setTitle(interpolate(gettext("Hand %(n)s"), { n: hand.number }, true), table.name, spec.name);
  return {
    nav: nav(),
    main: [
      el("h1", {}, `${interpolate(gettext("Hand %(n)s"), { n: hand.number }, true)}: ${word(hand.status)}`),
      result ? settlementTable(result) : null,
      hand.status === "voided" ? el("p", { class: "big" }, interpolate(gettext("Voided by %(who)s: %(reason)s"), { who: hand.voided_by, reason: hand.void_reason }, true)) : null,
    ],
    bar: [el("div", { class: "buttons" }, el("button", { type: "button", class: "act chips primary", "data-action": "next", onclick: () => { view.result = result ? { table: tableId, number: hand.number, result } : null; go({ table: tableId }); } }, gettext("Next hand")))],
  };
}

// ------------------------------------------------------------------------- routing

let screen = JSON.parse(localStorage.getItem(LAST) || "{}");
let shown = null; // the screen on display, to scroll a new one to its top

async function go(next) {
  screen = next;
  view.error = null;
  view.manage = false;
  remember(next);
  await render();
}

let painting = Promise.resolve();
function render(options = {}) {
  working(1);
  painting = painting
    .then(() => paint(options))
    .catch(() => {})
    .finally(() => working(-1));
  return painting;
}

async function paint({ noFetch = false } = {}) {
  let out;
  try {
    if (!api.token) {
      out = loginScreen();
    } else {
      if (!view.me) {
        view.me = await api.get("auth/me/");
        for (const game of await api.get("games/")) view.games[game.code] = game;
        document.getElementById("who").textContent = view.me.username;
      }
      if (screen.change) out = await changes.screen(screen.table, screen.hand);
      else if (screen.custody) out = await custody.screen(screen.table, screen.custody);
      else if (screen.hand) out = await handScreen(screen.table, screen.hand, noFetch ? view.cache : null);
      else if (screen.table) out = noFetch && view.tableCache && view.tableCache.id === screen.table ? view.tableCache.paint() : await tableScreen(screen.table);
      else out = await tablesScreen();
    }
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      api.logout();
      view.me = null;
      out = loginScreen();
    } else if (error instanceof NotSent) {
      // Offline: keep what is on screen; the outbox marker says the tablet keeps trying.
      setTimeout(() => render(), 2000);
      return;
    } else {
      view.error = problemList(error);
      out = { nav: nav(), main: [alertBox()] };
    }
  }
  root.replaceChildren(...(out.main || []).flat().filter(Boolean));
  navRoot.replaceChildren(...(out.nav || []).flat(Infinity).filter(Boolean));
  barRoot.replaceChildren(...(out.bar || []).flat().filter(Boolean));
  barRoot.hidden = !(out.bar && out.bar.length);
  const key = JSON.stringify(screen);
  if (key !== shown) {
    shown = key;
    window.scrollTo(0, 0);
    root.scrollTop = 0;
  }
  painted();
}

// Counts what the screen drew (a test waits for the next drawing after a tap).
function painted() {
  document.body.dataset.painted = String(Number(document.body.dataset.painted || 0) + 1);
}

let hadUnsent = false;
outbox.onChange = (items) => {
  showOutbox(items);
  const unsent = items.some((item) => item.state === "unsent");
  if (hadUnsent && !items.length) render(); // a retried intent got its answer
  hadUnsent = unsent;
};
showOutbox(outbox.items);
render().then(async () => {
  if (outbox.items.length) {
    await outbox.resume();
    await render();
  }
});
