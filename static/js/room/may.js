// What this member may do, as the server decided it: the page's config
// carries `may` (vtt/tabletop/policy.py, `capabilities`), and every script
// of the room draws its controls from these answers instead of reading the
// member's role. Nothing here is a permission: the server decides again
// when asked, and refuses what it does not allow.
//
// Some answers are not yes or no, because what they are about changes while
// the page is open: `tokens` ("any", "controlled", "none") is which tokens
// the member moves, read against a token's controllers as they arrive;
// `characters` ("any", "own", "none") which characters they edit, spend
// for, roll for and place, read against a character's owner; placing
// tokens and opening doors are "always", "never" or "with_setting", read
// against the campaign's settings as the GM changes them.

export class May {
  constructor(config) {
    const served = config.may || {};
    this.me = config.me?.id;
    /** The GM's tools: the console's buttons, menus, hidden rolls and overrides. */
    this.runsTable = !!served.runs_table;
    /** Acting at all (rolling, attacking, spending): observers watch. */
    this.takesPart = !!served.takes_part;
    this.placing = served.places_tokens || "never";
    this.doors = served.opens_doors || "never";
    this.settings = config.settings || {};
    this.tokens = served.tokens || "none";
    this.characters = served.characters || "none";
    /** Pinging a point of the map; pulling everyone's view there (the GM). */
    this.pings = !!served.pings;
    this.pullsView = !!served.pulls_view;
    this.markers = served.markers || "none";
    /** Area templates: "any" (GM-only ones too), "public", "none". */
    this.templates = served.templates || "none";
    // Drawing on the map (policy.may_draw): `draws` is the shared layer,
    // which the campaign's `drawing` setting ("everyone" or "gm") may close
    // to players ("always", "with_setting", "never"); `gm_drawings` the
    // GM-only layer, which its holder sees and clears, and whose holder
    // moves and removes anyone's drawings (policy.may_change_drawing).
    this.drawing = served.draws || "never";
    this.drawsGm = !!served.gm_drawings;
  }

  get placesTemplates() {
    return this.templates !== "none";
  }

  /** A template only the GM sees: the GM's (policy.may_place_template). */
  get placesSecretTemplates() {
    return this.templates === "any";
  }

  /** Whether the member takes this template off the map: the GM any, a player their own. */
  removesTemplate(template) {
    return this.templates === "any" || (this.templates === "public" && template?.by?.id === this.me);
  }

  /** Drawing on the shared layer, as the settings now stand. */
  get draws() {
    return this.drawing === "always" || (this.drawing === "with_setting" && this.settings.drawing !== "gm");
  }

  /** Whether the member moves and removes this drawing: their own, or any for the GM layer's holder. */
  changesDrawing(drawing) {
    return this.drawsGm || (this.takesPart && drawing?.by?.id === this.me);
  }

  /** Free markers and secret ones: the GM's (policy.may_mark_token). */
  get marksFreely() {
    return this.markers === "any";
  }

  /** Whether the member adds or takes off a marker (a condition, or not) on this token. */
  marks(token, condition) {
    if (this.markers === "any") return true;
    return this.markers === "conditions" && !!condition && this.movesToken(token);
  }

  /** The campaign's settings changed (campaign.updated). */
  settingsChanged(settings) {
    this.settings = settings || {};
  }

  get placesTokens() {
    return this.placing === "always" || (this.placing === "with_setting" && !!this.settings.players_place_tokens);
  }

  get opensDoors() {
    return this.doors === "always" || (this.doors === "with_setting" && !!this.settings.players_open_doors);
  }

  /** Whether the member moves (and attacks or resets with) this token. */
  movesToken(token) {
    if (this.tokens === "any") return true;
    return this.tokens === "controlled" && (token?.controllers || []).includes(this.me);
  }

  /** A token of the member's own (a GM's page has none: it centres on the map). */
  ownToken(token) {
    return this.tokens === "controlled" && this.movesToken(token);
  }

  /** Whether the member edits, spends for and rolls for this character. */
  editsCharacter(character) {
    if (this.characters === "any") return true;
    return this.characters === "own" && character?.owner_id === this.me;
  }

  /** Whether the character's sheet is the member's to read in the sheet tab:
   *  those they edit, and their own even as an observer. */
  readsSheet(character) {
    return this.editsCharacter(character) || character?.owner_id === this.me;
  }

  /** Whether the member may drop this character's token on the map. */
  placesCharacter(character) {
    return this.placesTokens && this.editsCharacter(character);
  }
}
