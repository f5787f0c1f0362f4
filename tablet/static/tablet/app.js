// The dealer tablet: log in, pick the table you deal, and run it by touch. Everything comes
// from the REST API: the game's state and the between-hand actions legal now
// (GET /tables/{id}/game/), the hand's state and its legal actions with their bounds
// (GET /hands/{id}/), and the game's schemas (GET /games/). No game is named here.

import { Api, ApiError, NotSent, Outbox } from "./api.js";
import { CardPool, cardLabel, el } from "./cards.js";
import { fieldsFor, openFields } from "./forms.js";
import "./words.js";

const root = document.getElementById("app");
const api = new Api(root.dataset.api);
const outbox = new Outbox(api, showOutbox);
const view = { games: {}, table: null, hand: null, me: null, error: null, settlement: null };
const LAST = "tablet.screen";

// Words whose text comes from the API (action types, roles, phases), translated at sight.
function t(text) {
  return gettext(text);
}

function showOutbox(items) {
  const box = document.getElementById("outbox");
  const unsent = items.filter((item) => item.state === "unsent");
  box.textContent = unsent.length ? gettext("Not sent yet: retrying…") : items.length ? gettext("Sending…") : "";
  box.className = unsent.length ? "outbox unsent" : "outbox";
  document.body.toggleAttribute("data-busy", items.length > 0);
}

function remember(screen) {
  localStorage.setItem(LAST, JSON.stringify(screen));
}

function problemList(error) {
  if (!(error instanceof ApiError)) return [String(error.message || error)];
  const errors = (error.body && error.body.errors) || [];
  return errors.length ? errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)) : [error.message];
}

function alertBox() {
  if (!view.error) return null;
  return el("div", { role: "alert", class: "alert" }, view.error.map((line) => el("p", {}, line)));
}

// One write: the intent keeps its key until the server answers; a dropped connection is
// retried by the outbox with the same key.
// `next(answer)` names the screen to show after a successful write (default: this one).
async function write(path, body, next = null) {
  view.error = null;
  document.body.dataset.ready = "false"; // until the screen shows the answer
  try {
    const answer = await outbox.send(path, body);
    if (next && answer) {
      screen = next(answer);
      remember(screen);
    }
    return answer;
  } catch (error) {
    if (error instanceof NotSent) {
      if (error.message !== "busy") view.error = [gettext("Not sent yet: the tablet retries with the same request.")];
      return null;
    }
    view.error = problemList(error);
    return null;
  } finally {
    await render();
  }
}

// ------------------------------------------------------------------------- screens

function loginScreen() {
  const user = el("input", { id: "username", name: "username", autocomplete: "username", required: true });
  const password = el("input", { id: "password", name: "password", type: "password", autocomplete: "current-password", required: true });
  const form = el(
    "form",
    {
      class: "panel",
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
    el("div", { class: "field" }, el("label", { for: "username" }, gettext("Username")), user),
    el("div", { class: "field" }, el("label", { for: "password" }, gettext("Password")), password),
    el("button", { type: "submit", class: "primary" }, gettext("Log in")),
  );
  return [alertBox(), form];
}

async function tablesScreen() {
  const tables = (await api.get("tables/?limit=200")).results;
  const mine = tables.filter((table) => table.dealer === view.me.username || view.me.roles.includes("floor_manager"));
  return [
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
            el("span", {}, t(table.status)),
          ),
        ),
      ),
    ),
  ];
}

function seatsPanel(table, game) {
  const state = game.state || {};
  const roles = {};
  const mark = (seat, word) => seat && (roles[seat] = [...(roles[seat] || []), word]);
  mark(state.designated_player, gettext("designated player"));
  mark(state.offer_seat, gettext("offered the position"));
  mark(state.banker, gettext("banker"));
  mark(state.button, gettext("button"));
  mark(state.next_dealer, gettext("deals next"));
  const markers = state.markers || {};
  const waiting = (state.next_hand && state.next_hand.waiting) || {};
  return el(
    "ol",
    { class: "seats", "aria-label": gettext("Seats") },
    table.seats.map((seat) =>
      el(
        "li",
        { class: seat.in_play ? "seat in" : seat.player ? "seat out" : "seat empty" },
        el("span", { class: "number" }, `${gettext("Seat")} ${seat.number}`),
        el("span", { class: "player" }, seat.player || gettext("empty")),
        seat.player && !seat.in_play ? el("span", {}, gettext("sitting out")) : null,
        (roles[seat.number] || []).map((word) => el("span", { class: "role" }, word)),
        (markers[seat.number] || []).map((m) => el("span", { class: "marker" }, m)),
        waiting[seat.number] ? el("span", { class: "waiting" }, `${gettext("waiting")}: ${waiting[seat.number]}`) : null,
        seatControls(table, seat),
      ),
    ),
  );
}

// Seat a player, sit them out or back in, or empty the seat.
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
      el("label", { for: `player-${seat.number}`, class: "visually-hidden" }, `${gettext("Player for seat")} ${seat.number}`),
      name,
      el("button", { type: "submit" }, gettext("Seat player")),
    );
  }
  return el(
    "div",
    { class: "seat-form" },
    el(
      "button",
      { type: "button", onclick: () => write(path, { player: seat.player, sitting_out: !seat.sitting_out }) },
      seat.sitting_out ? gettext("Back in") : gettext("Sit out"),
    ),
    el("button", { type: "button", onclick: () => write(path, { player: "", sitting_out: false }) }, gettext("Player leaves")),
  );
}

// A rules object in words: {"scheme": "per_player", "bands": [{"up_to": 2500, "amount": 50}]}
// reads "per player · up to 2500: 50; above: 100".
function readable(value) {
  if (Array.isArray(value)) return value.map(readable).join("; ");
  if (value && typeof value === "object") {
    if ("up_to" in value && "amount" in value) {
      return value.up_to === null ? `${gettext("above")}: ${value.amount}` : `${gettext("up to")} ${value.up_to}: ${value.amount}`;
    }
    return Object.entries(value)
      .filter(([, v]) => v !== null && !(Array.isArray(v) && !v.length))
      .map(([k, v]) => (typeof v === "object" ? readable(v) : k === "scheme" || k === "kind" ? t(String(v).replaceAll("_", " ")) : `${t(k.replaceAll("_", " "))} ${v}`))
      .join(" · ");
  }
  return String(value);
}

function facts(table, game) {
  const state = game.state || {};
  const items = [
    [gettext("Limits"), Object.entries(table.limits).map(([k, v]) => `${t(k.replaceAll("_", " "))} ${v ?? "—"}`).join(" · ")],
    [gettext("Smallest chip"), table.smallest_chip],
  ];
  const rake = table.rules && table.rules.rake;
  if (rake) items.push([gettext("Rake"), readable(rake)]);
  if (state.kitty !== undefined) items.push([gettext("Kitty"), state.kitty ?? "—"]);
  if (state.bank !== undefined && state.bank !== null) items.push([gettext("Bank"), state.bank]);
  if (state.stopped) items.push([gettext("Stopped"), gettext("the offer went round without acceptance")]);
  return el("dl", { class: "facts" }, items.map(([k, v]) => [el("dt", {}, k), el("dd", {}, String(v))]));
}

function actionForm(schemas, legal, context, post, label) {
  const values = { type: legal.type };
  const schema = schemas[legal.type] || { properties: {} };
  const button = el("button", { type: "submit", class: "action" }, label);
  let ready = () => false;
  const fields = fieldsFor(schema, legal, context, values, () => (button.disabled = !ready()));
  const nodes = fields.nodes;
  ready = fields.ready;
  button.disabled = !ready();
  return el(
    "form",
    {
      class: "act",
      "data-action": legal.type,
      onsubmit: async (event) => {
        event.preventDefault();
        if (!ready() || outbox.pending) return;
        button.disabled = true;
        await post(values);
      },
    },
    nodes.length ? el("h3", { class: "act-title" }, label) : null,
    nodes.length ? el("div", { class: "fields" }, nodes) : null,
    button,
  );
}

function actionLabel(legal) {
  const who = legal.seat !== undefined ? ` · ${gettext("seat")} ${legal.seat}` : "";
  return `${t(legal.type.replaceAll("_", " "))}${who}`;
}

async function tableScreen(id) {
  const [table, game] = await Promise.all([api.get(`tables/${id}/`), api.get(`tables/${id}/game/`)]);
  if (game.hand_open) {
    const hands = (await api.get(`tables/${id}/hands/?limit=1`)).results;
    if (hands.length && hands[0].status === "open") {
      screen = { table: id, hand: hands[0].id };
      return handScreen(id, hands[0].id);
    }
  }
  const spec = view.games[table.game];
  remember({ table: id });
  const between = game.actions.map((legal) =>
    actionForm(spec.schemas.table_actions, legal, { deck: game.deck, taken: new Set() }, async (values) => {
      await write(`tables/${id}/game/actions/`, values);
    }, actionLabel(legal)),
  );
  const open = openForm(table, game, spec);
  for (const ride of open.querySelectorAll("fieldset[data-rides]")) {
    const own = between.find((node) => node.dataset.action === ride.dataset.rides);
    if (own) mirror(own, ride);
  }
  return [
    el("nav", {}, el("button", { type: "button", onclick: () => go({}) }, gettext("All tables"))),
    el("h1", {}, `${table.name} · ${spec.name}`),
    alertBox(),
    facts(table, game),
    seatsPanel(table, game),
    between.length ? el("section", { "aria-label": gettext("Between hands") }, el("h2", {}, gettext("Between hands")), between) : null,
    table.status === "open" ? open : el("p", {}, gettext("The table is closed.")),
  ];
}

// The same action in two forms (its own, and riding in the opening) holds one set of
// amounts: what the dealer types in one shows in the other, so the hand never opens with a
// bank other than the one typed.
function mirror(one, other) {
  const copy = (from, to) =>
    from.addEventListener("input", () => {
      if (to.value === from.value) return;
      to.value = from.value;
      to.dispatchEvent(new Event("input", { bubbles: true }));
    });
  for (const input of one.querySelectorAll("input[name]")) {
    const twin = other.querySelector(`input[name="${input.name}"]`);
    if (!twin) continue;
    copy(input, twin);
    copy(twin, input);
  }
}

// A between-hand action legal now that the game's opening body also takes (High Card
// Flush: the offered seat's acceptance with its bank) rides in the opening call: its fields
// are part of this form, so the dealer's routine between hands is one request. The action's
// own form stays under "Between hands" for recording it without opening a hand.
function ridingActions(schema, game, context, values, onInput) {
  const properties = schema.properties || {};
  return game.actions
    .filter((legal) => properties[legal.type] && properties[legal.type].type === "object")
    .map((legal) => {
      const part = {};
      values[legal.type] = part;
      const fields = fieldsFor(properties[legal.type], legal, context, part, onInput);
      const node = el(
        "fieldset",
        { class: "rides", "data-rides": legal.type },
        el("legend", {}, actionLabel(legal)),
        el("p", {}, gettext("Recorded as the hand opens.")),
        fields.nodes,
      );
      return { node, ready: fields.ready };
    });
}

function openForm(table, game, spec) {
  const schema = spec.schemas.open;
  const values = {};
  const inPlay = table.seats.filter((seat) => seat.in_play).map((seat) => seat.number);
  const button = el("button", { type: "submit", class: "primary" }, gettext("Open hand"));
  let ready = () => false;
  const context = { deck: game.deck, taken: new Set(), pool: new CardPool() };
  const onInput = () => (button.disabled = !ready());
  const rides = ridingActions(schema, game, context, values, onInput);
  const fields = openFields(schema, game.next_seats, context, values, onInput);
  const nodes = [...rides.map((ride) => ride.node), ...fields.nodes];
  ready = () => fields.ready() && rides.every((ride) => ride.ready());
  button.disabled = !ready();
  return el(
    "form",
    {
      class: "panel",
      "aria-label": gettext("Open hand"),
      onsubmit: async (event) => {
        event.preventDefault();
        if (outbox.pending) return;
        await write(`tables/${table.id}/hands/`, values, (hand) => ({ table: table.id, hand: hand.id }));
      },
    },
    el("h2", {}, gettext("Next hand")),
    el("p", {}, `${gettext("Seats in play")}: ${inPlay.join(", ") || "—"} · ${gettext("dealt in")}: ${game.next_seats.join(", ") || "—"}`),
    nodes,
    button,
  );
}

function takenCards(state) {
  const taken = new Set();
  const walk = (value) => {
    if (typeof value === "string" && /^[2-9TJQKA][cdhs]$/.test(value)) taken.add(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") Object.entries(value).forEach(([k, v]) => k !== "deck" && k !== "legal_actions" && walk(v));
  };
  walk(state);
  return taken;
}

function stateSummary(state) {
  const items = [[gettext("Phase"), t(String(state.phase ?? "—").replaceAll("_", " "))]];
  items.push([gettext("To act"), state.to_act ? `${gettext("seat")} ${state.to_act}` : gettext("any seat")]);
  // Who holds the deal, the bank or the button this hand: a seat, or {seat, bank, ...}.
  const roles = [
    ["designated_player", gettext("Designated player")],
    ["banker", gettext("Banker")],
    ["button", gettext("Button")],
    ["dealer", gettext("Dealer")],
  ];
  for (const [key, word] of roles) {
    const part = state[key];
    const seat = part && typeof part === "object" ? part.seat : part;
    if (typeof seat !== "number") continue;
    const bank = part && typeof part === "object" && part.bank != null ? ` · ${gettext("Bank")} ${part.bank}` : "";
    items.push([word, `${gettext("seat")} ${seat}${bank}`]);
  }
  if (state.kitty != null) items.push([gettext("Kitty"), state.kitty]);
  if (state.pot !== undefined) items.push([gettext("Pot"), state.pot]);
  if (Array.isArray(state.pots)) items.push([gettext("Pots"), state.pots.map((p) => p.amount).join(" + ") || "0"]);
  return el("dl", { class: "facts big" }, items.map(([k, v]) => [el("dt", {}, k), el("dd", {}, String(v))]));
}

function seatCards(state) {
  const rows = [];
  for (const key of ["designated_player", "banker"]) {
    const part = state[key];
    if (part && typeof part === "object" && part.cards) rows.push([`${t(key.replace("_", " "))} (${part.seat})`, part.cards]);
  }
  for (const seat of state.players || state.seats || []) {
    if (seat && typeof seat === "object") {
      const cards = seat.cards || (seat.hands || []).flatMap((h) => h.cards || []);
      rows.push([`${gettext("seat")} ${seat.seat}`, Array.isArray(cards) ? cards : []]);
    }
  }
  return el(
    "ul",
    { class: "hands" },
    rows.map(([who, cards]) => el("li", {}, el("strong", {}, who), " ", cards.length ? cards.map((c) => el("span", { class: `card ${c.slice(-1)}` }, cardLabel(c))) : "—")),
  );
}

// While the floor decides a request on the hand (a void), the hand records nothing: the
// screen says so, looks again every few seconds, and lets whoever asked take it back.
const RECHECK_MS = 5000;
let recheck = null;

async function waitingScreen(tableId, hand, spec) {
  const request = hand.waiting_for[0];
  const words = { who: request.requested_by, reason: request.reason };
  let asked;
  let proposed = null;
  if (request.kind === "payout") {
    asked = interpolate(gettext("The settlement is above the sign-off limit: %(reason)s"), words, true);
    proposed = (await api.get(`approvals/${request.id}/`)).detail.result;
  } else {
    asked = interpolate(gettext("%(who)s asked to void this hand: %(reason)s"), words, true);
  }
  clearTimeout(recheck);
  recheck = setTimeout(() => {
    if (screen.hand === hand.id && !outbox.pending) render();
  }, RECHECK_MS);
  const mine = request.requested_by === view.me.username;
  return [
    // While its hand is open a table opens on the hand itself: the way out is to all tables.
    el("nav", {}, el("button", { type: "button", onclick: () => go({}) }, gettext("All tables"))),
    el("h1", {}, `${gettext("Hand")} ${hand.number} · ${spec.name}`),
    alertBox(),
    el(
      "section",
      { class: "panel waiting", role: "status", "aria-label": gettext("Waiting for the floor") },
      el("h2", {}, gettext("Waiting for the floor")),
      el("p", {}, asked),
      el("p", {}, gettext("Nothing can be recorded on the hand until a floor manager decides.")),
      // The dealer's next step first, then what the floor is looking at.
      el(
        "div",
        { class: "buttons" },
        el("button", { type: "button", onclick: () => render() }, gettext("Check again")),
        mine
          ? el(
              "button",
              {
                type: "button",
                id: "withdraw",
                onclick: async () => {
                  if (outbox.pending) return;
                  await write(`approvals/${request.id}/withdraw/`, {});
                },
              },
              gettext("Withdraw the request"),
            )
          : null,
      ),
      proposed ? settlementTable(proposed) : null,
    ),
  ];
}

async function handScreen(tableId, handId) {
  const hand = await api.get(`hands/${handId}/`);
  if (hand.status !== "open") return settlementScreen(tableId, hand);
  const spec = view.games[hand.game];
  const state = hand.state;
  remember({ table: tableId, hand: handId });
  if (hand.waiting_for.length) return waitingScreen(tableId, hand, spec);
  const context = { deck: state.deck, taken: takenCards(state), seat: state.to_act ?? undefined, pool: new CardPool() };
  const actions = state.legal_actions.map((legal) =>
    actionForm(spec.schemas.actions, legal, { ...context, seat: legal.seat ?? context.seat }, async (values) => {
      await write(`hands/${handId}/actions/`, values);
    }, actionLabel(legal)),
  );
  let settle = null;
  if (state.complete) {
    let preview = null;
    try {
      preview = await api.get(`hands/${handId}/preview/`);
    } catch (error) {
      preview = null;
    }
    settle = el(
      "section",
      { class: "panel", "aria-label": gettext("Settle") },
      el("h2", {}, gettext("Check before settling")),
      preview ? settlementTable(preview) : null,
      el(
        "button",
        {
          type: "button",
          class: "primary",
          id: "settle",
          onclick: async (event) => {
            if (outbox.pending) return;
            event.currentTarget.disabled = true;
            const result = await write(`hands/${handId}/settle/`, {});
            if (result && result.settlement) view.settlement = result; // not one waiting for the floor
            await render();
          },
        },
        gettext("Settle hand"),
      ),
    );
  }
  return [
    // While its hand is open a table opens on the hand itself: the way out is to all tables.
    el("nav", {}, el("button", { type: "button", onclick: () => go({}) }, gettext("All tables"))),
    el("h1", {}, `${gettext("Hand")} ${hand.number} · ${spec.name}`),
    alertBox(),
    stateSummary(state),
    seatCards(state),
    actions.length ? el("section", { "aria-label": gettext("Actions") }, el("h2", {}, gettext("Actions")), actions) : null,
    settle,
    el(
      "details",
      { class: "void" },
      el("summary", {}, gettext("Void request")),
      voidForm(handId, tableId),
    ),
  ];
}

function voidForm(handId, tableId) {
  const reason = el("input", { id: "void-reason", name: "reason", required: true });
  return el(
    "form",
    {
      onsubmit: async (event) => {
        event.preventDefault();
        if (outbox.pending) return;
        await write(`hands/${handId}/void/`, { reason: reason.value });
      },
    },
    el("p", {}, gettext("A floor manager decides; the hand waits until then.")),
    el("label", { for: "void-reason" }, gettext("Reason")),
    reason,
    el("button", { type: "submit" }, gettext("Ask the floor to void the hand")),
  );
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
            el("td", {}, t(seat.role.replaceAll("_", " "))),
            el("td", {}, seat.lines.map((line) => el("div", {}, `${t(line.wager.replaceAll("_", " "))}: ${line.amount >= 0 ? "+" : ""}${line.amount}`))),
            el("td", {}, String(seat.rake)),
            el("td", { class: "net" }, `${seat.net >= 0 ? "+" : ""}${seat.net}`),
          ),
        ),
      ),
    ),
    el("p", {}, `${gettext("Rake")}: ${result.rake}`),
    el("ol", { class: "explanation" }, result.explanation.map((line) => el("li", {}, line))),
  );
}

async function settlementScreen(tableId, hand) {
  let result = view.settlement;
  if (!result && hand.settlement) {
    result = (await api.get(`settlements/${hand.settlement}/`)).result;
  }
  view.settlement = null;
  return [
    el("h1", {}, `${gettext("Hand")} ${hand.number}: ${t(hand.status)}`),
    alertBox(),
    result ? settlementTable(result) : null,
    hand.status === "voided" ? el("p", { class: "big" }, interpolate(gettext("Voided by %(who)s: %(reason)s"), { who: hand.voided_by, reason: hand.void_reason }, true)) : null,
    el("button", { type: "button", class: "primary", onclick: () => go({ table: tableId }) }, gettext("Next hand")),
  ];
}

// ------------------------------------------------------------------------- routing

let screen = JSON.parse(localStorage.getItem(LAST) || "{}");

async function go(next) {
  screen = next;
  view.error = null;
  remember(next);
  await render();
}

async function render() {
  let nodes;
  try {
    if (!api.token) {
      nodes = loginScreen();
    } else {
      if (!view.me) {
        view.me = await api.get("auth/me/");
        for (const game of await api.get("games/")) view.games[game.code] = game;
        document.getElementById("who").textContent = view.me.username;
      }
      if (screen.hand) nodes = await handScreen(screen.table, screen.hand);
      else if (screen.table) nodes = await tableScreen(screen.table);
      else nodes = await tablesScreen();
    }
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      api.logout();
      view.me = null;
      nodes = loginScreen();
    } else {
      view.error = problemList(error);
      nodes = [alertBox(), el("button", { type: "button", onclick: () => go({}) }, gettext("All tables"))];
    }
  }
  if (Array.isArray(nodes)) root.replaceChildren(...nodes.flat().filter(Boolean));
  document.body.dataset.ready = "true";
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
