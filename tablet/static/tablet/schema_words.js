// The words of the games' schemas that the change form shows (each option's title, its
// choices' titles, what an empty value means) and the theoretical figures' names, listed once
// so that `makemessages -d djangojs` collects them for the translators: the form itself is
// built from the schemas (change.js) and shows a word the catalogues lack as the game wrote
// it. Nothing imports a value from here; the list only has to exist. A game's descriptions
// (its help sentences) are shown where the dealer's language has them.
export const SCHEMA_WORDS = [
  gettext("betting structure"), gettext("limit"), gettext("pot limit"), gettext("no limit"),
  gettext("small blind"), gettext("big blind"), gettext("big bet"), gettext("most raises"),
  gettext("no raise cap heads up"), gettext("a flush beats a full house"), gettext("rake"),
  gettext("rake taken as"), gettext("no rake"), gettext("a fixed fee per hand"),
  gettext("a percentage of the pot"), gettext("fixed fee"), gettext("percentage"), gettext("cap"),
  gettext("no cap"), gettext("no draw, no drop"), gettext("ante minimum"), gettext("ante maximum"),
  gettext("bank minimum"), gettext("bank maximum"), gettext("bank coverage"),
  gettext("the bank and what it collects as the hand settles"),
  gettext("only the bank posted before the hand"), gettext("collection fee"), gettext("who pays"),
  gettext("every player and the designated player"),
  gettext("every player, not the designated player"), gettext("the designated player only"),
  gettext("fee per hand"), gettext("fee bands by ante"), gettext("band"), gettext("up to"),
  gettext("no upper end"), gettext("fee"), gettext("flush pay table"), gettext("7 cards"),
  gettext("6 cards"), gettext("5 cards"), gettext("4 cards"), gettext("straight flush pay table"),
  gettext("3 cards"), gettext("largest payout per hand"), gettext("most players"),
  gettext("qualifying flush length"), gettext("qualifying high card"), gettext("two"),
  gettext("three"), gettext("four"), gettext("five"), gettext("six"), gettext("seven"),
  gettext("eight"), gettext("nine"), gettext("ten"), gettext("jack"), gettext("queen"),
  gettext("king"), gettext("ace"), gettext("designated-player rotation"),
  gettext("most hands in a row"), gettext("rolling window"), gettext("fewest different holders"),
  gettext("ante"), gettext("discard pile starts with a turned card"), gettext("fewest players"),
  gettext("a fee by bands of the pot"), gettext("fee bands by pot"), gettext("small bet"),
  gettext("a call costs"), gettext("the defender's soldiers plus one, times the small bet"),
  gettext("the attacker's bet"), gettext("half a small bet, rounded down to the smallest chip"),
  gettext("most soldiers"), gettext("most raises in a limit battle"),
  gettext("an uncalled raise goes back"), gettext("a short seat may go all in"),
  gettext("stake minimum"), gettext("stake maximum"), gettext("kitty minimum"),
  gettext("plain Pontoon, no kitty"), gettext("kitty maximum"), gettext("players' stick minimum"),
  gettext("banker's stick minimum"), gettext("none: the banker may stand on any total"),
  gettext("a split pontoon pays double"), gettext("a split pontoon takes the bank"),
  gettext("most hands after splitting"), gettext("only aces split"), gettext("card limit"),
  gettext("packs"), gettext("one pack"), gettext("two packs mixed"), gettext("smallest chip"),
  // the theoretical figures
  gettext("House win per unit wagered (hold)"),
  gettext("Flush bonus: player's return per unit staked"),
  gettext("Straight Flush bonus: player's return per unit staked"),
];
