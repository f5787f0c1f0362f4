// The desks speak English: the dealer tablet's modules, which the settlement replay draws with,
// call Django's JavaScript catalog functions (gettext, ngettext, interpolate); here they give
// the words as written, so the felt reads in the desk's one language whatever language the
// browser asks for (the tablet's own catalog would follow the browser's).
window.gettext = (msgid) => msgid;
window.ngettext = (singular, plural, count) => (count === 1 ? singular : plural);
window.interpolate = (format, values, named) =>
  named
    ? format.replace(/%\(\w+\)s/g, (match) => String(values[match.slice(2, -2)]))
    : format.replace(/%s/g, () => String(values.shift()));
