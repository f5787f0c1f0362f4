// The words the API sends that the tablet shows (action types, roles, phases, statuses,
// limits, wagers), listed once so that `makemessages -d djangojs` collects them for the
// translators. Nothing imports a value from here; the list only has to exist.
export const WORDS = [
  gettext("accept"), gettext("decline"), gettext("choose banker"), gettext("blind choice"),
  gettext("wager"), gettext("deal"), gettext("raise"), gettext("fold"), gettext("check"),
  gettext("call"), gettext("bet"), gettext("draw"), gettext("discard"), gettext("stake"),
  gettext("shoot"), gettext("no shoot"), gettext("split"), gettext("buy"), gettext("twist"),
  gettext("stick"), gettext("stand"), gettext("sell bank"), gettext("battle"), gettext("stay"),
  gettext("player"), gettext("designated player"), gettext("banker"), gettext("house"),
  gettext("open"), gettext("closed"), gettext("settled"), gettext("voided"),
  gettext("ante"), gettext("amount"), gettext("cards"), gettext("card"), gettext("stack"),
  gettext("to"), gettext("source"), gettext("target"), gettext("banner"), gettext("palace"),
  gettext("upcard"), gettext("kitty"), gettext("flush bonus"), gettext("straight flush bonus"),
  gettext("choice"), gettext("bank"), gettext("seat"), gettext("clubs"), gettext("diamonds"),
  gettext("hearts"), gettext("spades"), gettext("of"), gettext("min"), gettext("max"),
  gettext("Undo card"), gettext("post all"), gettext("wait"), gettext("post small dead"),
  gettext("stock"), gettext("per player"), gettext("per player except dp"), gettext("dp only"),
  gettext("percent"), gettext("fixed"), gettext("cap"), gettext("none"),
];
