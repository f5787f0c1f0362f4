// Money as people read it: the API speaks integer minor units; every screen shows them in
// the house currency (CURRENCY, CURRENCY_EXPONENT), e.g. 125000 -> "$1,250.00", and an amount
// the dealer types in major units (12.50) is sent as minor units (1250).

// The tablet's #app says the currency; a page that draws with these modules (the compliance
// desk's replay) says it on an element of its own.
const root = document.getElementById("app") || document.querySelector("[data-currency]");
const CURRENCY = (root && root.dataset.currency) || "USD";
const EXPONENT = Number((root && root.dataset.exponent) ?? 2);
const SCALE = 10 ** EXPONENT;
const LANGUAGE = document.documentElement.lang || "en";

let format;
try {
  format = new Intl.NumberFormat(LANGUAGE, {
    style: "currency",
    currency: CURRENCY,
    minimumFractionDigits: EXPONENT,
    maximumFractionDigits: EXPONENT,
  });
} catch (error) {
  format = new Intl.NumberFormat(LANGUAGE, { minimumFractionDigits: EXPONENT, maximumFractionDigits: EXPONENT });
}

export function money(minor) {
  if (minor === null || minor === undefined || Number.isNaN(Number(minor))) return "—";
  return format.format(Number(minor) / SCALE);
}

// A signed amount for a net: "+$12.00", "−$5.00", "$0.00".
export function signed(minor) {
  const value = Number(minor);
  if (value > 0) return `+${money(value)}`;
  if (value < 0) return `−${money(-value)}`;
  return money(0);
}

// What the dealer typed (major units, "12.5" or "12,50") as minor units; null when it is not
// an amount.
export function parseMajor(text) {
  const cleaned = String(text).trim().replace(/\s/g, "").replace(",", ".");
  if (!/^\d+(\.\d*)?$/.test(cleaned)) return null;
  return Math.round(Number(cleaned) * SCALE);
}

export function major(minor) {
  return (Number(minor) / SCALE).toFixed(EXPONENT);
}

export const MONEY_STEP = 1 / SCALE;
