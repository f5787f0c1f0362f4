// A settled hand replayed step by step on the compliance desk, drawn with the dealer
// tablet's own modules from the presentation view each step carries (the same seats round
// the felt, cards, stacks, wagers, pots and the seat to act the dealer saw). Every step is in
// the page (`#replay-data`, written by the server with each step's words), so moving through
// them asks nothing of the network. First / Previous / Next / Last, the step slider, and the
// keyboard: the left and right arrows anywhere on the page, Home and End inside the replay.

import { felt, middleOf } from "../tablet/table.js";
import { el } from "../tablet/cards.js";

const root = document.getElementById("replay");
const source = document.getElementById("replay-data");

function start() {
  if (!root || !source) return;
  const steps = JSON.parse(source.textContent);
  if (!steps.length) return;
  const controls = root.querySelector("#replay-controls");
  const now = root.querySelector("#replay-now");
  const slider = root.querySelector("#replay-step");
  const count = root.querySelector("#replay-count");
  const number = root.querySelector("#replay-number");
  const title = root.querySelector("#replay-title");
  const state = root.querySelector("#replay-state");
  const table = root.querySelector("#replay-felt");
  const listed = [...root.querySelectorAll("#step-list > li")];
  const buttons = Object.fromEntries([...controls.querySelectorAll("[data-go]")].map((b) => [b.dataset.go, b]));
  const last = steps.length - 1;
  let current = 0;

  function parties(step) {
    const view = step.view;
    const all = [...(view.seats || []), ...(view.house ? [view.house] : [])];
    if (!step.nets) return all;
    return all.map((party) => ({ ...party, net: step.nets[String(party.seat)] ?? null }));
  }

  function draw() {
    const step = steps[current];
    root.dataset.step = String(current);
    number.textContent = current === 0 ? "Step 0:" : current === last && step.nets ? "End:" : `Step ${current}:`;
    title.textContent = step.title;
    state.textContent = step.state;
    count.textContent = `${current} of ${last}`;
    slider.value = String(current);
    slider.setAttribute("aria-valuetext", `step ${current} of ${last}: ${step.title}`);
    if (step.view) {
      table.replaceChildren(felt(parties(step), middleOf(step.view), { focus: step.view.to_act }));
    } else {
      table.replaceChildren(el("p", { class: "no-view" }, "This game does not draw its table; the step is in words only."));
    }
    listed.forEach((item, index) => {
      if (index === current) item.setAttribute("aria-current", "step");
      else item.removeAttribute("aria-current");
    });
    for (const [go, button] of Object.entries(buttons)) {
      const atStart = current === 0 && (go === "first" || go === "previous");
      const atEnd = current === last && (go === "next" || go === "last");
      button.disabled = atStart || atEnd;
    }
  }

  function go(where) {
    const target = { first: 0, previous: current - 1, next: current + 1, last }[where];
    const next = Math.max(0, Math.min(last, target));
    if (next === current) return;
    const focused = document.activeElement;
    current = next;
    draw();
    // A button that has just gone out of use hands the focus to its opposite.
    if (focused && focused.disabled) {
      const other = { first: "next", previous: "next", next: "previous", last: "previous" }[focused.dataset.go];
      buttons[other].focus();
    }
  }

  for (const [where, button] of Object.entries(buttons)) button.addEventListener("click", () => go(where));
  slider.addEventListener("input", () => {
    current = Math.max(0, Math.min(last, Number(slider.value)));
    draw();
  });
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target === slider || (target instanceof Element && target.closest("input, select, textarea, [contenteditable]"))) return;
    const inside = target instanceof Node && root.contains(target);
    const where = { ArrowLeft: "previous", ArrowRight: "next", Home: inside ? "first" : null, End: inside ? "last" : null }[event.key];
    if (!where) return;
    event.preventDefault();
    go(where);
  });

  controls.hidden = false;
  now.hidden = false;
  draw();
}

start();
