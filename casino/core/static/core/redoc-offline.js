// ReDoc's bundle points the footer logo of its sidebar at cdn.redoc.ly; a casino LAN has no
// internet (and the page's Content-Security-Policy refuses it), so the logo is the app's own
// icon. Loaded before the bundle; it changes only that one image source.
(() => {
  const outside = /^https:\/\/cdn\.redoc\.ly\//;
  const own = document.currentScript.dataset.icon;
  const setAttribute = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (name, value) {
    if (this instanceof HTMLImageElement && name === "src" && outside.test(String(value))) value = own;
    return setAttribute.call(this, name, value);
  };
  const src = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, "src");
  Object.defineProperty(HTMLImageElement.prototype, "src", {
    ...src,
    set(value) {
      src.set.call(this, outside.test(String(value)) ? own : value);
    },
  });
})();
