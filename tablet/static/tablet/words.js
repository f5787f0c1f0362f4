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
  // statuses
  gettext("waiting"), gettext("to act"), gettext("in"), gettext("checked"), gettext("called"),
  gettext("raised"), gettext("all in"), gettext("folded"), gettext("stood"), gettext("pat"),
  gettext("drew"), gettext("bust"), gettext("out"), gettext("won"), gettext("lost"),
  gettext("push"), gettext("declined"), gettext("empty"),
  // badges
  gettext("dealer"), gettext("button"), gettext("small blind"), gettext("big blind"),
  gettext("caller"), gettext("new player"), gettext("offered"), gettext("deals next"),
  // groups
  gettext("soldiers"), gettext("discards"), gettext("bought"),
  // wagers
  gettext("pot"), gettext("main"), gettext("side"),
  // phases
  gettext("predraw"), gettext("postdraw"), gettext("showdown"), gettext("complete"),
  gettext("wagers"), gettext("decisions"), gettext("play"), gettext("final turns"),
  gettext("first card"), gettext("stakes"), gettext("second card"), gettext("players"),
  // limits
  gettext("ante min"), gettext("ante max"), gettext("bank min"), gettext("bank max"),
  gettext("stake min"), gettext("stake max"), gettext("kitty min"), gettext("kitty max"),
  gettext("structure"), gettext("small bet"), gettext("big bet"), gettext("limit"),
  gettext("pot limit"), gettext("no limit"),
];
