// Asking for a limit or rule change from the tablet: a form built from the game's schemas
// (GET /games/: `schemas.limits`, `schemas.rules`; docs/schemas.md), nothing written per
// game. Every limit, the smallest chip and every rule a table may set, each with the value
// in force beside the new one; amounts typed in the house currency and converted exactly to
// minor units; odds as "[500] to 1", percentages, yes/no and choices as big buttons (a
// select for a long list), pay tables a line a row, bands as rows to add and remove. As the
// dealer edits, the preview (POST /tables/{id}/changes/preview/) says what changes, why it
// would be refused (next to the field), the theoretical edge before and after (asking again
// while a figure is still computing) and the hand it applies from. A reason is required; the
// request goes through the outbox (its Idempotency-Key kept until the server answers), then
// waits in the approvals queue, where the dealer sees it and may withdraw it.
//
// The form is drawn once per table and kept while the dealer types: the preview, the waiting
// requests and a field's problem are redrawn in place, so nothing typed loses its focus.

import { ApiError, NotSent } from "./api.js";
import { el } from "./cards.js";
import { money } from "./money.js";
import "./schema_words.js";

const root = document.getElementById("app");
const CURRENCY = (root && root.dataset.currency) || "USD";
const EXPONENT = Number((root && root.dataset.exponent) ?? 2);
const LANGUAGE = document.documentElement.lang || "en";
const LARGEST_CHIP = 10 ** 9;
const REASON_LENGTH = 500;
const PREVIEW_DELAY_MS = 450;
const COMPUTING_AGAIN_MS = 3000;
const WAITING_AGAIN_MS = 10000;
const MISSING = Symbol("missing"); // an optional field left empty: left out

const say = (template, params) => interpolate(template, params, true);
const upper = (text) => (text ? text[0].toLocaleUpperCase(LANGUAGE) + text.slice(1) : "");
const words = (text) => (text ? gettext(String(text)) : "");
const keyWords = (key) => gettext(String(key).replaceAll("_", " "));

// ------------------------------------------------------------------ numbers, exactly

const numberParts = new Intl.NumberFormat(LANGUAGE).formatToParts(12345.6);
const DECIMAL = (numberParts.find((p) => p.type === "decimal") || { value: "." }).value;
const OTHER_MARK = DECIMAL === "," ? "." : ",";

// What is written before and after an amount's input, as the dealer's language writes the
// currency ("$" before in English, "US$" or "USD" where the language says so).
function currencyParts() {
  try {
    const parts = new Intl.NumberFormat(LANGUAGE, { style: "currency", currency: CURRENCY }).formatToParts(1);
    const at = parts.findIndex((p) => p.type === "currency");
    const first = parts.findIndex((p) => p.type === "integer");
    const symbol = at >= 0 ? parts[at].value : CURRENCY;
    return at >= 0 && at < first ? [symbol, ""] : ["", symbol];
  } catch (error) {
    return ["", CURRENCY];
  }
}
const [CURRENCY_BEFORE, CURRENCY_AFTER] = currencyParts();

// Minor units as the text an amount's input shows: 1250 -> "12.50" ("12,50" in Greek).
export function majorText(minor) {
  const value = BigInt(Math.trunc(Number(minor)));
  const sign = value < 0n ? "-" : "";
  const abs = value < 0n ? -value : value;
  const scale = 10n ** BigInt(EXPONENT);
  const whole = (abs / scale).toString();
  if (!EXPONENT) return sign + whole;
  return `${sign}${whole}${DECIMAL}${(abs % scale).toString().padStart(EXPONENT, "0")}`;
}

function example() {
  return majorText(1250);
}

// An amount typed in major units as minor units, exactly (no floating point): "12.50",
// "12,50", "1,250", "$12". The language's decimal mark is the decimal mark; the other mark
// separates thousands where it stands as they do ("1,250.00" in English, "1.250,00" in Greek)
// and is otherwise read as a decimal mark too (a keypad's "."). More decimals than the
// currency has is refused, in words.
export function toMinor(text) {
  let cleaned = String(text).replace(/[\s\u00a0\u202f]/g, "");
  for (const mark of [CURRENCY_BEFORE, CURRENCY_AFTER, CURRENCY, CURRENCY.toLowerCase()]) {
    if (mark) cleaned = cleaned.split(mark).join("");
  }
  const notAmount = { error: say(gettext("Not an amount: write it like %(example)s"), { example: example() }) };
  if (!/^[0-9.,]+$/.test(cleaned) || !/[0-9]/.test(cleaned)) return notAmount;
  const esc = (c) => (c === "." ? "\\." : c);
  const grouped = new RegExp(`^[0-9]{1,3}(${esc(OTHER_MARK)}[0-9]{3})+(${esc(DECIMAL)}[0-9]*)?$`);
  let normal;
  if (grouped.test(cleaned)) normal = cleaned.split(OTHER_MARK).join("").replace(DECIMAL, ".");
  else if (cleaned.includes(DECIMAL) && cleaned.includes(OTHER_MARK)) return notAmount;
  else normal = cleaned.replace(DECIMAL, ".").replace(OTHER_MARK, ".");
  if (!/^[0-9]*(\.[0-9]*)?$/.test(normal) || normal === ".") return notAmount;
  const [whole, part = ""] = normal.split(".");
  if (part.replace(/0+$/, "").length > EXPONENT) {
    return {
      error: EXPONENT
        ? say(gettext("Too many decimals: the smallest amount is %(smallest)s"), { smallest: money(1) })
        : say(gettext("Whole amounts only: the smallest amount is %(smallest)s"), { smallest: money(1) }),
    };
  }
  const scale = 10n ** BigInt(EXPONENT);
  const digits = (part + "0".repeat(EXPONENT)).slice(0, EXPONENT);
  const minor = BigInt(whole || "0") * scale + BigInt(digits || "0");
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) return { error: gettext("Too large an amount") };
  return { value: Number(minor) };
}

function wholeNumber(text) {
  const cleaned = String(text).replace(/[\s\u00a0\u202f]/g, "");
  if (!/^-?[0-9]+$/.test(cleaned) || cleaned.length > 15) return { error: gettext("Enter a whole number") };
  return { value: Number(cleaned) };
}

function oddsNumber(text) {
  const cleaned = String(text).trim().replace(/\s*(:|to)\s*1\s*$/i, "").replace(/\s*:\s*1$/, "");
  const read = wholeNumber(cleaned);
  return read.error ? { error: say(gettext("Enter the N of N to 1, like %(example)s"), { example: 200 }) } : read;
}

function decimalNumber(text) {
  const cleaned = String(text).replace(/[\s\u00a0\u202f%]/g, "").replace(",", ".");
  if (!/^-?([0-9]+(\.[0-9]*)?|\.[0-9]+)$/.test(cleaned)) return { error: say(gettext("Enter a number, like %(example)s"), { example: `2${DECIMAL}5` }) };
  return { value: Number(cleaned) };
}

function numberText(value) {
  return String(value).replace(".", DECIMAL);
}

const percentFormat = new Intl.NumberFormat(LANGUAGE, { style: "percent", minimumFractionDigits: 3, maximumFractionDigits: 3 });

// ------------------------------------------------------------------ values in words

function choiceTitles(schema) {
  const titles = new Map();
  for (const option of schema.oneOf || []) {
    if ((option.enum || []).length === 1 && option.title) titles.set(JSON.stringify(option.enum[0]), option.title);
  }
  return (schema.enum || []).filter((v) => v !== null).map((value) => [value, words(titles.get(JSON.stringify(value))) || keyWords(String(value))]);
}

function nullWords(schema) {
  return words(schema["x-null"] || "none");
}

// An object's parts in the game's order. JavaScript lists whole-number keys first, rising
// ("4", "5", "6", "7"), whatever order the game wrote them in: a pay table's lines ("7 cards"
// down to "4 cards") are shown from the longest hand down, as the games write them.
function propertyEntries(schema) {
  const entries = Object.entries(schema.properties || {});
  const whole = entries.filter(([key]) => /^[0-9]+$/.test(key)).sort(([a], [b]) => Number(b) - Number(a));
  return [...whole, ...entries.filter(([key]) => !/^[0-9]+$/.test(key))];
}

function isPayTable(schema) {
  const props = Object.values(schema.properties || {});
  return schema.type === "object" && props.length > 0 && props.every((p) => p.format === "odds");
}

// A value as its schema says people read it, in the dealer's language.
export function describe(schema, value) {
  schema = schema || {};
  if (value === null || value === undefined) return nullWords(schema);
  if (typeof value === "boolean") return value ? gettext("yes") : gettext("no");
  if (schema.enum && typeof value !== "object") {
    const found = choiceTitles(schema).find(([v]) => v === value);
    return found ? found[1] : keyWords(String(value));
  }
  if (schema.format === "money" && typeof value === "number") return money(value);
  if (schema.format === "odds") return `${value}:1`;
  if (schema.format === "percent") return `${numberText(value)}%`;
  if (schema.format === "minutes") return say(ngettext("%(n)s minute", "%(n)s minutes", Number(value)), { n: value });
  if (Array.isArray(value)) {
    if (!value.length) return gettext("none");
    return value.map((item) => describe(schema.items || {}, item)).join("; ");
  }
  if (typeof value === "object") {
    const props = schema.properties || {};
    if (isPayTable(schema)) {
      const lines = propertyEntries(schema).map(([key]) => key).filter((key) => value[key] !== undefined && value[key] !== null);
      if (!lines.length) return gettext("not offered");
      return lines.map((key) => `${words(props[key].title) || key} ${value[key]}:1`).join(", ");
    }
    const keys = Object.keys(props).length ? propertyEntries(schema).map(([key]) => key).filter((key) => key in value) : Object.keys(value);
    return keys
      .map((key) => {
        const sub = props[key] || {};
        if (value[key] === null && sub["x-null"]) return nullWords(sub);
        return `${words(sub.title) || keyWords(key)} ${describe(sub, value[key])}`;
      })
      .join(", ");
  }
  return String(value);
}

// A value as lines: a pay table a line each, a list an entry each, else one line.
function describeLines(schema, value) {
  schema = schema || {};
  if (value && typeof value === "object" && !Array.isArray(value) && isPayTable(schema)) {
    const props = schema.properties;
    const lines = propertyEntries(schema).map(([key]) => key).filter((key) => value[key] !== undefined && value[key] !== null);
    return lines.length ? lines.map((key) => `${words(props[key].title) || key} ${value[key]}:1`) : [gettext("not offered")];
  }
  if (Array.isArray(value) && value.length) return value.map((item) => describe(schema.items || {}, item));
  return [describe(schema, value)];
}

// Options before and after, each its name, then "Now: …" and the new value (a narrow column
// reads them better than a three-column table). `items`: {path, title, schema, before, after,
// wasDefault}.
function diffList(items, label, newWords) {
  const cell = (schema, value) => describeLines(schema, value).map((line) => el("span", { class: "chg-line-words" }, line));
  return el(
    "dl",
    { class: "chg-diff", "aria-label": label },
    items.map((item) =>
      el(
        "div",
        { class: "chg-diff-item", "data-path": item.path },
        el("dt", {}, item.title),
        el("dd", { class: "before" }, el("span", { class: "chg-tag" }, gettext("Now:")), " ", cell(item.schema, item.before), item.wasDefault ? el("small", {}, ` (${gettext("the game's default")})`) : null),
        el("dd", { class: "after" }, el("span", { class: "chg-tag" }, newWords), " ", cell(item.schema, item.after)),
      ),
    ),
  );
}

function same(a, b) {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (typeof a === "number" && typeof b === "number") return a === b;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => same(a[k], b[k]));
  }
  return a === b;
}

// ------------------------------------------------------------------ the form's fields

function scalarKind(schema) {
  if (schema.enum) return "choice";
  if (schema.type === "boolean") return "boolean";
  if (schema.type === "integer") return ["money", "odds", "count", "minutes"].includes(schema.format) ? schema.format : "count";
  if (schema.type === "number") return schema.format === "percent" ? "percent" : "number";
  if (schema.type === "string") return "text";
  return "fixed";
}

let serial = 0;

// One field (or group of fields) of the form: `path` is where the API reports its problems
// (`ante_max`, `rules.rake.bands[1].amount`), `current` the value in force.
class Field {
  constructor(schema, { key, path, label, current, nullable = false, required = false, initial = MISSING }) {
    this.schema = schema || {};
    this.key = key;
    this.path = path;
    this.label = label;
    this.current = current;
    this.nullable = nullable || !!this.schema.nullable;
    this.required = required;
    this.id = `chg-${++serial}`;
    this.error = null;
    this.server = [];
    this.children = [];
    this.rows = [];
    const start = initial === MISSING ? current : initial;
    if (this.schema.type === "object" && this.schema.properties) {
      this.kind = isPayTable(this.schema) ? "paytable" : "object";
      const needed = new Set(this.schema.required || []);
      const value = start && typeof start === "object" ? start : {};
      const now = current && typeof current === "object" ? current : {};
      for (const [k, prop] of propertyEntries(this.schema)) {
        if (prop.readOnly) continue;
        this.children.push(new Field(prop, { key: k, path: `${path}.${k}`, label: upper(words(prop.title) || keyWords(k)), current: now[k], required: needed.has(k), initial: k in value ? value[k] : undefined }));
      }
    } else if (this.schema.type === "array" && (this.schema.items || {}).type === "object" && (this.schema.items || {}).properties) {
      this.kind = "rows";
      this.item = this.schema.items;
      this.noun = words(this.item.title) || gettext("row");
      for (const row of Array.isArray(start) ? start : []) this.addRow(row);
    } else {
      this.kind = scalarKind(this.schema);
      this.text = this.textOf(start);
    }
  }

  addRow(value = MISSING) {
    const index = this.rows.length;
    const row = new Field(this.item, { key: index, path: `${this.path}[${index}]`, label: "", current: undefined, initial: value === MISSING ? {} : value });
    row.kind = "row";
    this.rows.push(row);
    this.renumber();
    return row;
  }

  removeRow(index) {
    this.rows.splice(index, 1);
    this.renumber();
  }

  renumber() {
    this.rows.forEach((row, index) => {
      const old = row.path;
      const path = `${this.path}[${index}]`;
      const walk = (node) => {
        node.path = path + node.path.slice(old.length);
        node.children.forEach(walk);
        node.rows.forEach(walk);
      };
      walk(row);
      row.key = index;
      row.label = say(gettext("%(what)s %(n)s"), { what: upper(this.noun), n: index + 1 });
      row.name = say(gettext("%(what)s %(n)s"), { what: this.noun, n: index + 1 });
    });
  }

  textOf(value) {
    if (value === undefined || value === null) return this.kind === "boolean" || this.kind === "choice" ? (value === null ? "null" : "") : "";
    switch (this.kind) {
      case "money": return majorText(value);
      case "boolean": return value ? "yes" : "no";
      case "choice": return JSON.stringify(value);
      case "percent": case "number": return numberText(value);
      case "fixed": return "";
      default: return String(value);
    }
  }

  get scalar() {
    return !["object", "paytable", "rows", "row"].includes(this.kind);
  }

  // The value the form holds (MISSING: left out), each scalar's problem in `this.error`.
  read() {
    if (this.kind === "object" || this.kind === "paytable" || this.kind === "row") {
      const out = {};
      for (const child of this.children) {
        const value = child.read();
        if (value !== MISSING) out[child.key] = value;
      }
      return out;
    }
    if (this.kind === "rows") return this.rows.map((row) => row.read());
    this.error = null;
    if (this.kind === "fixed") return this.current === undefined ? MISSING : this.current;
    const text = (this.text || "").trim();
    if (!text) {
      if (this.nullable) return null;
      if (this.required) {
        this.error = this.kind === "choice" || this.kind === "boolean" ? gettext("Choose one") : gettext("Enter a value");
        return MISSING;
      }
      return MISSING;
    }
    let read;
    switch (this.kind) {
      case "money": read = toMinor(text); break;
      case "odds": read = oddsNumber(text); break;
      case "count": case "minutes": read = wholeNumber(text); break;
      case "percent": case "number": read = decimalNumber(text); break;
      case "boolean": read = text === "null" ? { value: null } : { value: text === "yes" }; break;
      case "choice": read = { value: JSON.parse(text) }; break;
      default: {
        const most = this.schema.maxLength;
        read = most !== undefined && text.length > most ? { error: say(gettext("At most %(n)s characters"), { n: most }) } : { value: text };
      }
    }
    if (read.error) {
      this.error = read.error;
      return MISSING;
    }
    const wrong = read.value === null ? null : this.outOfBounds(read.value);
    if (wrong) {
      this.error = wrong;
      return MISSING;
    }
    return read.value;
  }

  outOfBounds(value) {
    if (typeof value !== "number") return null;
    const { minimum: least, maximum: most } = this.schema;
    const shown = (v) => describe(this.schema, v);
    if (least !== undefined && most !== undefined && (value < least || value > most)) return say(gettext("Enter from %(least)s to %(most)s"), { least: shown(least), most: shown(most) });
    if (least !== undefined && value < least) return say(gettext("Enter at least %(least)s"), { least: shown(least) });
    if (most !== undefined && value > most) return say(gettext("Enter at most %(most)s"), { most: shown(most) });
    return null;
  }

  *walk() {
    yield this;
    for (const child of this.children) yield* child.walk();
    for (const row of this.rows) yield* row.walk();
  }
}

// The whole form: each limit (one the game does not require may be emptied), the smallest
// chip, then every rule the table may set (not those the table sets from elsewhere: its
// limits, its smallest chip, anything `readOnly`).
function buildFields(spec, table) {
  const limits = spec.schemas.limits || {};
  const limitProps = limits.properties || {};
  const needed = new Set(limits.required || []);
  const fields = [];
  for (const [key, prop] of Object.entries(limitProps)) {
    fields.push(new Field(prop, { key, path: key, label: upper(words(prop.title) || keyWords(key)), current: table.limits[key] ?? null, nullable: !needed.has(key), required: needed.has(key) }));
  }
  const chip = { type: "integer", format: "money", title: "smallest chip", minimum: 1, maximum: LARGEST_CHIP };
  fields.push(new Field(chip, { key: "smallest_chip", path: "smallest_chip", label: upper(gettext("smallest chip")), current: table.smallest_chip, required: true }));
  const rules = [];
  const inForce = table.rules_in_force || { ...(spec.rules || {}), ...(table.rules || {}) };
  for (const [key, prop] of Object.entries((spec.schemas.rules || {}).properties || {})) {
    if (prop.readOnly || key in limitProps || key === "smallest_chip") continue;
    rules.push(new Field(prop, { key, path: `rules.${key}`, label: upper(words(prop.title) || keyWords(key)), current: inForce[key] }));
  }
  return { limits: fields, rules };
}

// ------------------------------------------------------------------ drawing a field

function nowText(field) {
  return say(gettext("Now: %(value)s"), { value: describe(field.schema, field.current) });
}

function helpText(field) {
  const parts = [];
  const description = field.schema.description;
  // A game's own help is shown where the dealer's language has it (English always).
  if (description && (LANGUAGE.startsWith("en") || gettext(description) !== description)) {
    const text = upper(gettext(description));
    parts.push(/[.!?]$/.test(text) ? text : `${text}.`);
  }
  if (field.nullable && field.kind !== "choice" && field.kind !== "boolean") parts.push(say(gettext("Leave empty for %(what)s."), { what: nullWords(field.schema) }));
  return parts.join(" ");
}

class Drawn {
  constructor(form) {
    this.form = form; // the ChangeForm
  }

  field(field, { inRow = false, inPayTable = false } = {}) {
    if (field.kind === "object") return this.group(field, inRow);
    if (field.kind === "paytable") return this.payTable(field);
    if (field.kind === "rows") return this.rows(field);
    if (field.kind === "fixed") {
      return el("div", { class: "chg-field", "data-path": field.path }, el("span", { class: "chg-label" }, field.label), el("span", { class: "chg-now" }, nowText(field)), el("span", { class: "muted" }, gettext("Kept as it is.")));
    }
    const help = helpText(field);
    const describedBy = [!inRow ? `${field.id}-now` : null, help ? `${field.id}-help` : null, `${field.id}-error`].filter(Boolean).join(" ");
    let control;
    if (field.kind === "boolean" || (field.kind === "choice" && this.fewChoices(field))) control = this.buttons(field, describedBy);
    else if (field.kind === "choice") control = this.select(field, describedBy);
    else control = this.input(field, describedBy, inPayTable);
    const labelNode = field.kind === "boolean" || (field.kind === "choice" && this.fewChoices(field))
      ? el("span", { class: "chg-label", id: `${field.id}-label` }, field.label)
      : el("label", { class: "chg-label", for: field.id }, field.label);
    field.errorNode = el("p", { class: "problem chg-error", id: `${field.id}-error` });
    const node = el(
      "div",
      { class: `chg-field chg-${field.kind}`, "data-path": field.path },
      labelNode,
      inRow ? null : el("span", { class: "chg-now", id: `${field.id}-now` }, nowText(field)),
      control,
      help ? el("p", { class: "chg-help", id: `${field.id}-help` }, help) : null,
      field.errorNode,
    );
    field.box = node;
    this.showError(field);
    return node;
  }

  fewChoices(field) {
    return choiceTitles(field.schema).length + (field.nullable ? 1 : 0) <= 4;
  }

  input(field, describedBy, inPayTable) {
    const attrs = {
      id: field.id,
      type: "text",
      autocomplete: "off",
      spellcheck: "false",
      class: `chg-input chg-input-${field.kind}`,
      inputmode: field.kind === "money" || field.kind === "percent" || field.kind === "number" ? "decimal" : "numeric",
      value: field.text,
      "aria-describedby": describedBy,
      "data-path": field.path,
      oninput: (event) => {
        field.text = event.target.value;
        this.form.edited(field);
      },
      onchange: () => this.form.edited(field, true),
    };
    if (field.kind === "text") attrs.inputmode = "text";
    const input = el("input", attrs);
    field.input = input;
    let before = "";
    let after = "";
    if (field.kind === "money") [before, after] = [CURRENCY_BEFORE, CURRENCY_AFTER];
    else if (field.kind === "odds") after = gettext("to 1");
    else if (field.kind === "percent") after = "%";
    else if (field.kind === "minutes") after = gettext("minutes");
    return el("span", { class: `chg-control${inPayTable ? " chg-line" : ""}` }, before ? el("span", { class: "chg-unit" }, before) : null, input, after ? el("span", { class: "chg-unit" }, after) : null);
  }

  options(field) {
    if (field.kind === "boolean") {
      const out = [["yes", gettext("Yes")], ["no", gettext("No")]];
      if (field.nullable) out.push(["null", upper(nullWords(field.schema))]);
      return out;
    }
    const out = choiceTitles(field.schema).map(([value, title]) => [JSON.stringify(value), upper(title)]);
    if (field.nullable) out.unshift(["null", upper(nullWords(field.schema))]);
    return out;
  }

  buttons(field, describedBy) {
    const group = el("div", { class: "chg-choices", role: "group", "aria-labelledby": `${field.id}-label`, "aria-describedby": describedBy, id: field.id });
    const paint = () => {
      for (const button of group.children) button.setAttribute("aria-pressed", String(button.dataset.value === field.text));
    };
    for (const [value, title] of this.options(field)) {
      group.append(
        el(
          "button",
          {
            type: "button",
            class: "chg-choice",
            "data-value": value,
            "aria-pressed": String(value === field.text),
            onclick: () => {
              field.text = value;
              paint();
              this.form.edited(field, true);
            },
          },
          title,
        ),
      );
    }
    field.input = group;
    return group;
  }

  select(field, describedBy) {
    const options = this.options(field);
    const select = el(
      "select",
      {
        id: field.id,
        class: "chg-select",
        "aria-describedby": describedBy,
        "data-path": field.path,
        onchange: (event) => {
          field.text = event.target.value;
          this.form.edited(field, true);
        },
      },
      options.some(([value]) => value === field.text) ? null : el("option", { value: "" }, gettext("Choose…")),
      options.map(([value, title]) => el("option", { value, selected: value === field.text }, title)),
    );
    field.input = select;
    return select;
  }

  group(field, inRow) {
    field.errorNode = el("p", { class: "problem chg-error", id: `${field.id}-error` });
    const box = el(
      "fieldset",
      { class: "chg-group", "data-path": field.path },
      el("legend", {}, field.label),
      field.children.map((child) => this.field(child, { inRow })),
      field.errorNode,
    );
    field.box = box;
    this.showError(field);
    return box;
  }

  // A pay table: a line a row, "7 cards   now 200:1   [200] to 1"; a line emptied is not paid.
  payTable(field) {
    field.errorNode = el("p", { class: "problem chg-error", id: `${field.id}-error` });
    const box = el(
      "fieldset",
      { class: "chg-group chg-paytable", "data-path": field.path },
      el("legend", {}, field.label),
      el("p", { class: "chg-help" }, gettext("A line left empty is not paid.")),
      field.children.map((child) => this.field(child, { inPayTable: true })),
      field.errorNode,
    );
    field.box = box;
    this.showError(field);
    return box;
  }

  // A list of objects (fee bands): each row its fields and a Remove button, then Add.
  rows(field) {
    const list = el("div", { class: "chg-row-list" });
    const least = Number(field.schema.minItems || 0);
    const most = Number(field.schema.maxItems || 50);
    const paint = (focusRow = null) => {
      list.replaceChildren(
        ...field.rows.map((row, index) =>
          el(
            "fieldset",
            { class: "chg-row", "data-path": row.path },
            el("legend", {}, row.label),
            row.children.map((child) => this.field(child, { inRow: true })),
            el(
              "button",
              {
                type: "button",
                class: "chg-remove",
                "data-action": "remove-row",
                disabled: field.rows.length <= least,
                onclick: () => {
                  field.removeRow(index);
                  paint();
                  addButton.focus();
                  this.form.edited(field, true);
                },
              },
              say(gettext("Remove %(what)s"), { what: row.name }),
            ),
          ),
        ),
      );
      addButton.disabled = field.rows.length >= most;
      if (focusRow) focusRow.children.find((c) => c.input)?.input.focus();
    };
    const addButton = el(
      "button",
      {
        type: "button",
        class: "chg-add",
        "data-action": "add-row",
        onclick: () => {
          const row = field.addRow();
          paint(row);
          this.form.edited(field, true);
        },
      },
      say(gettext("Add %(what)s"), { what: field.noun }),
    );
    paint();
    const box = el(
      "fieldset",
      { class: "chg-group chg-rows", "data-path": field.path },
      el("legend", {}, field.label),
      el("span", { class: "chg-now" }, nowText(field)),
      list,
      addButton,
    );
    field.errorNode = el("p", { class: "problem chg-error", id: `${field.id}-error` });
    box.append(field.errorNode);
    field.box = box;
    this.showError(field);
    return box;
  }

  showError(field) {
    if (!field.errorNode) return;
    const texts = [field.error, ...field.server].filter(Boolean);
    field.errorNode.textContent = [...new Set(texts)].join(" ");
    field.errorNode.hidden = !texts.length;
    if (field.box) field.box.classList.toggle("invalid", texts.length > 0);
    if (field.input && field.input.tagName !== "DIV") {
      if (texts.length) field.input.setAttribute("aria-invalid", "true");
      else field.input.removeAttribute("aria-invalid");
    }
  }
}

// ------------------------------------------------------------------ one table's form

class ChangeForm {
  constructor(ctx, spec, table) {
    this.ctx = ctx;
    this.spec = spec;
    this.table = table;
    this.signature = ChangeForm.signature(table);
    this.fields = buildFields(spec, table);
    this.reason = "";
    this.reasonProblem = null;
    this.preview = null;
    this.previewState = "none";
    this.sequence = 0;
    this.timer = null;
    this.again = null;
    this.notice = null;
    this.sending = false;
    this.drawn = new Drawn(this);
    this.node = this.draw();
    this.refreshPreview();
  }

  static signature(table) {
    return JSON.stringify([table.id, table.limits, table.smallest_chip, table.rules_in_force || table.rules]);
  }

  all() {
    return [...this.fields.limits, ...this.fields.rules];
  }

  // What differs from the values in force, as the request takes it: a limit or the chip
  // replaces, a rule is sent whole. `problems` lists the fields that cannot be read.
  changes() {
    const out = {};
    const rules = {};
    const problems = [];
    for (const field of this.all()) {
      const value = field.read();
      for (const node of field.walk()) if (node.error) problems.push(node);
      if (value === MISSING) continue;
      if (same(value, field.current)) continue;
      if (field.path.startsWith("rules.")) rules[field.key] = value;
      else out[field.key] = value;
    }
    if (Object.keys(rules).length) out.rules = rules;
    return { changes: out, problems };
  }

  edited(field, now = false) {
    this.notice = null;
    for (const node of field.walk()) node.server = [];
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.refreshPreview(), now ? 120 : PREVIEW_DELAY_MS);
    this.previewBox.dataset.state = "pending";
  }

  showErrors() {
    for (const field of this.all()) for (const node of field.walk()) this.drawn.showError(node);
  }

  // The preview of what is typed now; an older answer is dropped when a newer one was asked.
  async refreshPreview() {
    clearTimeout(this.timer);
    clearTimeout(this.again);
    const { changes, problems } = this.changes();
    this.showErrors();
    const number = ++this.sequence;
    if (problems.length) {
      this.preview = null;
      this.previewState = "unreadable";
      this.paintPreview();
      return;
    }
    if (!Object.keys(changes).length) {
      this.preview = null;
      this.previewState = "none";
      this.placeServerErrors([]);
      this.paintPreview();
      return;
    }
    this.previewBox.dataset.state = "loading";
    let answer;
    try {
      answer = await this.ctx.api.request("POST", `tables/${this.table.id}/changes/preview/`, { changes, reason: this.reason });
    } catch (error) {
      if (number !== this.sequence) return;
      this.preview = null;
      this.previewState = error instanceof NotSent ? "offline" : "failed";
      this.previewProblem = error instanceof ApiError ? this.ctx.problems(error) : [];
      this.paintPreview();
      // Offline: asked again once the connection is back, as the outbox does.
      if (error instanceof NotSent) this.again = setTimeout(() => this.node.isConnected && this.refreshPreview(), COMPUTING_AGAIN_MS);
      return;
    }
    if (number !== this.sequence) return;
    this.preview = answer;
    this.previewState = "shown";
    this.placeServerErrors(answer.errors || []);
    this.paintPreview();
    // A figure still being simulated: ask again while the form is on screen.
    if (answer.theory && answer.theory.computing) {
      this.again = setTimeout(() => {
        if (this.node.isConnected) this.refreshPreview();
      }, COMPUTING_AGAIN_MS);
    }
  }

  // A refusal next to the field it is about (its path, or the nearest field above it); what
  // no field is about is listed in the preview.
  placeServerErrors(errors) {
    for (const field of this.all()) for (const node of field.walk()) node.server = [];
    this.unplaced = [];
    const nodes = this.all().flatMap((field) => [...field.walk()]);
    for (const problem of errors) {
      const path = String(problem.path || "");
      const head = path.split(".")[0].split("[")[0];
      const tail = path.includes(".") ? path.slice(path.indexOf(".") + 1) : "";
      const candidates = [path];
      if (head === "rules" && tail && this.fields.limits.some((f) => f.key === tail.split(".")[0])) candidates.unshift(tail.split(".")[0]);
      if ((head === "changes" || head === "limits") && tail) candidates.push(tail);
      let placed = false;
      for (const candidate of candidates) {
        const within = nodes.filter((n) => candidate === n.path || candidate.startsWith(`${n.path}.`) || candidate.startsWith(`${n.path}[`));
        const deepest = within.sort((a, b) => b.path.length - a.path.length).find((n) => n.errorNode);
        if (deepest) {
          deepest.server.push(problem.message);
          placed = true;
          break;
        }
      }
      if (!placed && !this.unplaced.includes(problem.message)) this.unplaced.push(problem.message);
    }
    this.showErrors();
  }

  // ---------------------------------------------------------------- drawing

  draw() {
    const spec = this.spec;
    const limits = el(
      "fieldset",
      { class: "panel chg-section" },
      el("legend", {}, gettext("Limits")),
      this.fields.limits.map((field) => this.drawn.field(field)),
    );
    const rules = this.fields.rules.length
      ? el("fieldset", { class: "panel chg-section" }, el("legend", {}, gettext("Rules")), this.fields.rules.map((field) => this.drawn.field(field)))
      : null;
    // Beside the form in landscape, scrolled on its own when long (so it takes the focus).
    this.previewBox = el("section", { class: "panel chg-preview", id: "change-preview", tabindex: "0", "aria-labelledby": "change-preview-title", "data-state": "none" });
    this.reasonInput = el("textarea", {
      id: "change-reason",
      name: "reason",
      maxlength: String(REASON_LENGTH),
      rows: "3",
      required: true,
      "aria-describedby": "change-reason-help change-reason-error",
      oninput: (event) => {
        this.reason = event.target.value;
        if (this.reasonProblem && this.reason.trim()) {
          this.reasonProblem = null;
          this.paintReason();
        }
      },
    });
    this.reasonError = el("p", { class: "problem chg-error", id: "change-reason-error" });
    const reason = el(
      "div",
      { class: "panel chg-reason" },
      el("label", { for: "change-reason" }, gettext("Reason")),
      this.reasonInput,
      el("p", { class: "chg-help", id: "change-reason-help" }, gettext("Why the table needs it; the floor manager who decides reads it.")),
      this.reasonError,
    );
    this.paintReason();
    this.paintPreview();
    return el(
      "form",
      {
        class: "chg-form",
        novalidate: true,
        "aria-label": say(gettext("Ask for a change at %(table)s"), { table: this.table.name }),
        onsubmit: (event) => {
          event.preventDefault();
          this.send();
        },
      },
      el("div", { class: "chg-main" }, limits, rules, reason),
      this.previewBox,
    );
  }

  paintReason() {
    this.reasonError.textContent = this.reasonProblem || "";
    this.reasonError.hidden = !this.reasonProblem;
    if (this.reasonProblem) this.reasonInput.setAttribute("aria-invalid", "true");
    else this.reasonInput.removeAttribute("aria-invalid");
  }

  titleOf(path) {
    const node = this.all().flatMap((f) => [...f.walk()]).find((n) => n.path === path);
    return node;
  }

  paintPreview() {
    const box = this.previewBox;
    const preview = this.preview;
    const out = [el("h2", { id: "change-preview-title" }, gettext("What changes"))];
    const applies = preview ? preview.applies_from_hand : this.table.next_hand_number;
    if (this.previewState === "unreadable") {
      out.push(el("p", {}, gettext("Correct the fields marked in the form to see what changes.")));
    } else if (this.previewState === "none") {
      out.push(el("p", {}, gettext("Nothing yet: every value is the one in force.")));
    } else if (this.previewState === "offline") {
      out.push(el("p", {}, gettext("Not sent yet: the tablet keeps trying")));
    } else if (this.previewState === "failed") {
      out.push(el("div", { class: "alert" }, (this.previewProblem && this.previewProblem.length ? this.previewProblem : [gettext("Something went wrong; try again.")]).map((line) => el("p", {}, line))));
    } else if (preview) {
      if (!preview.valid) {
        out.push(
          el(
            "div",
            { class: "chg-refused" },
            el("p", {}, el("strong", {}, gettext("This change would be refused: see the fields marked."))),
            this.unplaced && this.unplaced.length ? el("ul", {}, this.unplaced.map((text) => el("li", {}, text))) : null,
          ),
        );
      }
      if ((preview.changes || []).length) {
        const items = preview.changes.map((option) => {
          const node = this.titleOf(option.path);
          return {
            path: option.path,
            title: node ? node.label : upper(words(option.title)),
            schema: node ? node.schema : {},
            before: option.before,
            after: option.after,
            wasDefault: option.was_default,
          };
        });
        out.push(diffList(items, gettext("Options that change"), gettext("New:")));
      }
    }
    out.push(el("h3", {}, gettext("Applies from")), el("p", { class: "chg-applies", "data-hand": applies }, say(gettext("Hand %(n)s at the earliest: the first hand opened after a floor manager approves it."), { n: applies })));
    if (this.previewState === "shown" && preview) out.push(this.theory(preview));
    box.replaceChildren(...out.filter(Boolean));
    box.dataset.state = this.previewState === "shown" && preview && preview.theory && preview.theory.computing ? "computing" : "ready";
    this.ctx.status(this.summary());
  }

  theory(preview) {
    const theory = preview.theory || {};
    const head = el("h3", {}, gettext("Theoretical edge before and after"));
    if (!preview.valid) return el("div", { class: "chg-theory" }, head, el("p", {}, gettext("Shown once the change is valid.")));
    if (theory.offered === false) return el("div", { class: "chg-theory" }, head, el("p", {}, gettext("This game has no theoretical hold.")));
    if (theory.error) return el("div", { class: "chg-theory" }, head, el("p", {}, theory.error));
    const figure = (f) => {
      if (!f) return gettext("not offered");
      if (f.status === "computing" || f.status === "pending") return el("span", { class: "computing" }, gettext("computing…"));
      if (f.status !== "ready" || f.value === null) return gettext("could not be worked out");
      const note = f.exact ? gettext("exact") : say(gettext("simulated over %(n)s hands"), { n: new Intl.NumberFormat(LANGUAGE).format(f.hands || 0) });
      return [el("data", { value: f.value }, percentFormat.format(f.value)), " ", el("small", {}, note)];
    };
    return el(
      "div",
      { class: "chg-theory", "data-computing": String(!!theory.computing) },
      head,
      el(
        "dl",
        { class: "chg-edge" },
        (theory.figures || []).map((pair) =>
          el(
            "div",
            { class: `chg-edge-item${pair.changes ? " changed" : ""}`, "data-measure": pair.measure },
            el("dt", {}, words(pair.label), pair.changes ? el("strong", {}, ` (${gettext("changes")})`) : null),
            el("dd", { class: "before" }, el("span", { class: "chg-tag" }, gettext("Before:")), " ", figure(pair.before)),
            el("dd", { class: "after" }, el("span", { class: "chg-tag" }, gettext("After:")), " ", figure(pair.after)),
          ),
        ),
      ),
      theory.computing ? el("p", { class: "muted" }, gettext("A figure shown as computing is still being simulated; the tablet asks again by itself.")) : null,
    );
  }

  // One line for the action bar: how the change stands.
  summary() {
    if (this.notice) return this.notice;
    if (this.previewState === "unreadable") return gettext("Correct the fields marked in the form.");
    if (this.previewState === "none") return gettext("Change any value to see what it does.");
    if (!this.preview) return "";
    const count = (this.preview.changes || []).length;
    const what = say(ngettext("%(n)s option changes", "%(n)s options change", count), { n: count });
    return this.preview.valid ? what : `${what}: ${gettext("it would be refused")}`;
  }

  // ---------------------------------------------------------------- sending

  async send() {
    if (this.sending || this.ctx.outbox.pending) return;
    clearTimeout(this.timer);
    const { changes, problems } = this.changes();
    this.showErrors();
    this.reasonProblem = this.reason.trim() ? null : gettext("Give the reason for the change.");
    this.paintReason();
    if (problems.length) {
      this.notice = gettext("Nothing was sent: correct the fields marked.");
      this.ctx.status(this.notice);
      problems[0].input?.focus();
      return;
    }
    if (!Object.keys(changes).length) {
      this.notice = gettext("Nothing was sent: no value differs from the one in force.");
      this.ctx.status(this.notice);
      return;
    }
    if (this.reasonProblem) {
      this.notice = gettext("Nothing was sent: give the reason.");
      this.ctx.status(this.notice);
      this.reasonInput.focus();
      return;
    }
    this.sending = true;
    this.ctx.status(gettext("Sending…"));
    try {
      await this.ctx.outbox.send(`tables/${this.table.id}/changes/`, { changes, reason: this.reason.trim() });
    } catch (error) {
      this.sending = false;
      if (error instanceof NotSent) {
        this.unsent = true; // the outbox sends it again with its key
        this.notice = gettext("Not sent yet: the tablet keeps trying");
        this.ctx.status(this.notice);
        return;
      }
      const body = (error instanceof ApiError && error.body) || {};
      this.placeServerErrors(body.errors || []);
      this.preview = null;
      this.previewState = "failed";
      this.previewProblem = this.ctx.problems(error);
      this.paintPreview();
      this.notice = gettext("Nothing was sent: the request was refused.");
      this.ctx.status(this.notice);
      return;
    }
    this.sending = false;
    this.ctx.sent(this.table.id);
  }
}

// ------------------------------------------------------------------ the screen

export class ChangeScreens {
  // ctx: {api, outbox, go, nav, games, me (a function), problems (an error in words)}
  constructor(ctx) {
    this.ctx = ctx;
    this.forms = new Map();
    this.waiting = new Map(); // table id -> the changes waiting (as last read)
    this.flash = null; // what the last send or withdrawal did, said once
    this.poll = null;
  }

  // The top line's way in, from the table between hands and from a hand in play.
  button(tableId, handId = null) {
    const known = this.waiting.get(tableId);
    const count = known ? known.length : 0;
    return el(
      "button",
      { type: "button", class: "change-open", "data-action": "change", onclick: () => this.ctx.go({ table: tableId, hand: handId || undefined, change: true }) },
      count ? say(gettext("Ask for a change (%(n)s waiting)"), { n: count }) : gettext("Ask for a change"),
    );
  }

  async readWaiting(tableId) {
    const answer = await this.ctx.api.get(`approvals/?table=${tableId}&kind=limit_change&status=pending&limit=50`);
    const list = answer.results || answer;
    this.waiting.set(tableId, list);
    return list;
  }

  async screen(tableId, handId = null) {
    const [table, waiting] = await Promise.all([this.ctx.api.get(`tables/${tableId}/`), this.readWaiting(tableId)]);
    const spec = this.ctx.games[table.game];
    let form = this.forms.get(tableId);
    if (form && form.unsent && !this.ctx.outbox.pending) {
      // The outbox got the request through after all: it waits below; the form starts afresh.
      if (waiting.some((request) => request.requested_by === this.ctx.me().username)) this.flash = gettext("Your request waits for the floor: a floor manager approves or rejects it.");
      form = null;
    }
    if (!form || form.signature !== ChangeForm.signature(table)) {
      form = new ChangeForm(this.formContext(), spec, table);
      this.forms.set(tableId, form);
    }
    this.current = { tableId, handId, form, table, spec };
    const title = document.getElementById("title");
    if (title) title.textContent = `${table.name} · ${spec.name}`;
    this.waitingBox = el("div", { class: "chg-waiting-list", "aria-live": "polite" });
    this.paintWaiting(waiting, table, form);
    this.statusLine = el("p", { class: "prompt chg-status", id: "change-status", role: "status" }, form.summary());
    clearTimeout(this.poll);
    if (waiting.length) this.poll = setTimeout(() => this.recheck(tableId), WAITING_AGAIN_MS);
    const back = handId
      ? el("button", { type: "button", "data-action": "back", onclick: () => this.ctx.go({ table: tableId, hand: handId }) }, gettext("Back to the hand"))
      : el("button", { type: "button", "data-action": "back", onclick: () => this.ctx.go({ table: tableId }) }, gettext("Back to the table"));
    return {
      nav: this.ctx.nav([back]),
      main: [
        el("h1", { class: "chg-title" }, say(gettext("Ask for a change at %(table)s"), { table: table.name }), el("span", { class: "muted" }, ` · ${spec.name}`)),
        this.waitingBox,
        el("p", { class: "muted chg-intro" }, handId ? gettext("The hand in play keeps its rules. Each option shows the value in force; change any of them. A floor manager approves the request, and it applies from the first hand opened after that.") : gettext("Each option shows the value in force; change any of them. A floor manager approves the request, and it applies from the first hand opened after that.")),
        form.node,
      ],
      bar: [
        el(
          "div",
          { class: "buttons chg-bar" },
          this.statusLine,
          // Upright, the preview comes below the form: one tap brings it into view.
          el("button", { type: "button", class: "chg-jump", "data-action": "see-preview", onclick: () => { form.previewBox.scrollIntoView({ block: "start" }); form.previewBox.focus({ preventScroll: true }); } }, gettext("See what changes")),
          el("button", { type: "button", class: "act chips primary", id: "change-send", "data-action": "send-change", onclick: () => form.send() }, gettext("Ask for the change")),
        ),
      ],
    };
  }

  formContext() {
    return {
      api: this.ctx.api,
      outbox: this.ctx.outbox,
      problems: this.ctx.problems,
      status: (text) => {
        if (this.statusLine) this.statusLine.textContent = text;
      },
      sent: (tableId) => this.afterSend(tableId),
    };
  }

  // The request is in: the form starts afresh from the values in force, the request shows
  // at the top, waiting for the floor.
  async afterSend(tableId) {
    const form = this.forms.get(tableId);
    this.flash = gettext("Your request waits for the floor: a floor manager approves or rejects it.");
    this.forms.delete(tableId);
    if (form) form.node.remove();
    await this.reopen();
  }

  // The screen drawn again (the waiting requests read afresh), the news focused.
  async reopen() {
    const { tableId, handId } = this.current;
    await this.ctx.go({ table: tableId, hand: handId || undefined, change: true });
    const top = document.querySelector(".chg-waiting-list .chg-flash");
    if (top) top.focus();
  }

  // While requests wait, the screen looks again every few seconds; one a floor manager
  // decided is said in words (who, and the note of a rejection). The form starts again from
  // the new values in force unless the dealer has changed something in it.
  async recheck(tableId) {
    if (!this.current || this.current.tableId !== tableId || !this.waitingBox.isConnected) return;
    try {
      const before = (this.waiting.get(tableId) || []).map((request) => request.id);
      const waiting = await this.readWaiting(tableId);
      if (this.current.tableId !== tableId || !this.waitingBox.isConnected) return;
      const gone = before.filter((id) => !waiting.some((request) => request.id === id));
      const news = [];
      for (const id of gone) news.push(this.decided(await this.ctx.api.get(`approvals/${id}/`)));
      if (news.length) {
        this.flash = news.join(" ");
        const form = this.current.form;
        const untouched = !Object.keys(form.changes().changes).length && !form.reason.trim();
        if (untouched) {
          this.forms.delete(tableId);
          await this.reopen();
          return;
        }
      }
      this.paintWaiting(waiting, this.current.table, this.current.form);
      if (waiting.length) this.poll = setTimeout(() => this.recheck(tableId), WAITING_AGAIN_MS);
    } catch (error) {
      this.poll = setTimeout(() => this.recheck(tableId), WAITING_AGAIN_MS);
    }
  }

  decided(approval) {
    const who = approval.decided_by || "";
    if (approval.status === "approved") return say(gettext("%(who)s approved the change: it applies from the next hand opened."), { who });
    if (approval.status === "rejected") return approval.note ? say(gettext("%(who)s rejected the change: %(note)s"), { who, note: approval.note }) : say(gettext("%(who)s rejected the change."), { who });
    return gettext("A request is no longer waiting.");
  }

  paintWaiting(waiting, table, form) {
    const me = this.ctx.me();
    const flash = this.flash;
    const failed = this.flashFailed;
    this.flash = null;
    this.flashFailed = false;
    const time = new Intl.DateTimeFormat(LANGUAGE, { hour: "2-digit", minute: "2-digit" });
    const nodes = [];
    if (flash) nodes.push(el("p", { class: `chg-flash${failed ? " failed" : ""}`, tabindex: "-1", role: failed ? "alert" : "status" }, flash));
    const requests = waiting.map((request) => {
      const asked = (request.detail && request.detail.changes) || {};
      const items = [];
      for (const field of form.all()) {
        const source = field.path.startsWith("rules.") ? asked.rules || {} : asked;
        if (field.key in source) items.push({ path: field.path, title: field.label, schema: field.schema, before: field.current, after: source[field.key] });
      }
      const mine = me && request.requested_by === me.username;
      return el(
        "article",
        { class: "chg-waiting", "data-approval": request.id },
        el("p", { class: "chg-asked" }, say(gettext("%(who)s asked at %(time)s: %(reason)s"), { who: request.requested_by, time: time.format(new Date(request.requested_at)), reason: request.reason || "—" })),
        diffList(items, gettext("Options asked for"), gettext("Asked for:")),
        mine
          ? el("button", { type: "button", class: "act give-up", "data-action": "withdraw-change", onclick: (event) => this.withdraw(request, event.currentTarget) }, gettext("Withdraw the request"))
          : null,
      );
    });
    if (requests.length) {
      nodes.push(
        el(
          "section",
          { class: "panel waiting chg-waiting-panel", "aria-labelledby": "change-waiting-title" },
          el("h2", { id: "change-waiting-title" }, gettext("Waiting for the floor")),
          el("p", {}, say(gettext("Hand %(n)s at the earliest: the first hand opened after a floor manager approves it."), { n: table.next_hand_number })),
          requests,
        ),
      );
    }
    this.waitingBox.replaceChildren(...nodes);
  }

  async withdraw(request, button) {
    if (this.ctx.outbox.pending) return;
    button.disabled = true;
    try {
      await this.ctx.outbox.send(`approvals/${request.id}/withdraw/`, {});
      this.flash = gettext("Withdrawn: nothing changes.");
    } catch (error) {
      if (error instanceof NotSent) return;
      this.flash = this.ctx.problems(error).join(" ");
      this.flashFailed = true;
    }
    await this.reopen();
  }
}
