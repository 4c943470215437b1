// The shapes of the server's JSON that the typed modules read (docs/web.md describes the
// API). Types only: no module loads this file at run time, JSDoc names its types with
// import("./types.js").View and the like. A field the browser does not read is left out.

/** A seat's clock, as a view carries it (`view.clock`). */
export interface Clock {
  kind: "live" | "turn";
  /** seconds per seat at the server's `now` */
  left: number[];
  /** each seat's bank (seconds) */
  banks: number[];
  per_decision: number;
  bank?: number;
  running: number | null;
  paused?: boolean;
  deadline?: string | null;
  bot: string;
  on_timeout: "decision" | "game";
  reclaim?: boolean;
}

/** One of the table's seats (`view.seats[p]`). */
export interface Seat {
  kind?: string;
  /** a bot seat's level */
  bot?: string | null;
  name?: string | null;
  named?: boolean;
  /** the bot level playing the seat (a bot seat, or a person's seat a bot took over) */
  played_by?: string | null;
  /** why a bot plays a person's seat: "timeout", or the host's doing */
  replaced?: string | null;
}

/** A legal action of the decision. */
export interface Option {
  action: string;
  text: string;
  group: string;
  targets: string[];
  effect?: string | null;
  rules?: string[];
}

/** The decision the game waits for. */
export interface Decision {
  player: number;
  prompt: string;
  summary?: string | null;
  options: Option[];
}

/** A line of the game's log. */
export interface LogEvent {
  seq: number;
  kind: string;
  player?: number | null;
  text: string;
  rules?: string[];
}

/** The game's public state (what the board and the mats draw). */
export interface State extends BoardState {
  round: number;
  rounds: number;
  phase: string;
  crown: number;
  current_player: number;
  over?: boolean;
  players: Mat[];
  /** the building supply and, in setup, the start tiles */
  supply: Building[];
  start_tiles: Building[];
  /** the attributes' names in order (Industry first) */
  attributes: string[];
  [key: string]: unknown;
}

/** A building on a mat or in the supply (`count`: how many are left; none for a start tile). */
export interface Building {
  id: string;
  name: string;
  level: number;
  does: string;
  activatable?: boolean;
  worker?: boolean;
  count?: number;
}

/** An attribute's track on a mat. */
export interface Attribute {
  name: string;
  marker: number;
  level: number;
  next_level_at: number | null;
  glory: number;
}

/** A player's mat. */
export interface Mat {
  seat: number;
  to_move?: boolean;
  crown?: boolean;
  passed?: boolean;
  buildings: Building[];
  tokens: (Token & { id: string; count: number })[];
  governor_slot: Card | null;
  slot_choices: { id: string; card: string | null }[];
  on_tracks: Record<string, number>;
  glory_now: number;
  attributes: Attribute[];
  harbor: number;
  supply: number;
  over_limit?: boolean;
  card_count: number;
  card_limit: number;
  cards: Card[];
  aside: Card[];
}

/** A seat's benched notice: the host gave it to a bot, this link watches. */
export interface Benched {
  seat: number;
  words: string;
}

/** GET /api/games/{id}: the game as one token (or a spectator) sees it. */
export interface View {
  id?: string;
  seq: number;
  /** the seat to move (null: none, the game is over) */
  current_player?: number | null;
  title?: string | null;
  state: State;
  you?: number[];
  seats?: Seat[];
  decision?: Decision | null;
  over?: boolean;
  ended?: string | null;
  thinking?: boolean;
  can_undo?: boolean;
  can_reclaim?: number[];
  clock?: Clock | null;
  events?: LogEvent[];
  scores?: Score[] | null;
  benched?: Benched[];
  config?: { ruleset?: string; options?: Record<string, unknown> } | null;
  /** a rated game: its ratings change when it ends */
  rated?: boolean;
  /** a rated game's ratings: pending, done (each seat's change) or unrated (why) */
  ratings?: import("./ratings.js").GameRatings | null;
}

/** What h() and s() append: nodes, text (numbers too), nothing, or lists of them. */
export type Child = Node | string | number | boolean | null | undefined | readonly Child[];

/** The attributes of h() and s(): values written as text, `on*` functions as listeners. */
export type Attrs = Record<string, unknown>;

/** A seat's final score: its lines ([what, points]), total and rank (1: won). */
export interface Score {
  seat: number;
  total: number;
  rank: number;
  lines: [string, number][];
}

// ---- the game state's pieces as the board draws them (view.state)

/** A Trade token: brown (an attribute) or blue (an action spent later). */
export interface Token {
  name: string;
  colour: string;
}

/** A card: an Asset or a Governor. */
export interface Card {
  id?: string;
  code: string;
  deck: string;
  deck_name: string;
  gives: string;
  /** its icons, space-separated */
  short?: string;
  value?: number | null;
  governor?: boolean;
  bonus_disc?: boolean;
  slavery?: boolean;
  abolition?: boolean;
}

export interface Deck {
  id: string;
  code: string;
  name: string;
  size: number;
  top: Card | null;
}

/** A region's Governor: on the board (who would take it), a player's, or gone. */
export interface Governor {
  where: "board" | "player" | "gone";
  card: Card;
  winner?: number | null;
  holder?: number | null;
}

/** A city or a trade route. */
export interface Site {
  id: string;
  code: string;
  name: string;
  kind: "city" | "route";
  glory: number;
  owner: number | null;
  token: Token | null;
  tile?: unknown;
  /** a Fortification lies under the holder's disc (2 casualties to Attack it) */
  fortified?: boolean;
  /** how many Missionaries are in the city (it may never be Attacked) */
  missionaries?: number;
  /** the Pirate is in the city (it counts as unoccupied) */
  pirate?: boolean;
  /** per seat, the Harbor discs an Attack on it takes (null: the holder); null when nobody holds it or it may never be Attacked */
  attack_discs?: (number | null)[] | null;
}

export interface Track {
  id: string;
  length: number;
  filled: number;
  spaces: { space: number; owner: number | null; token: Token | null }[];
}

export interface Sea {
  id: string;
  label: string;
  discs: { owner: number; count: number }[];
}

/** A region; Europe has two decks and no track, sea or Governor. */
export interface Region {
  id: string;
  name: string;
  open: boolean;
  presence: number[];
  decks: Deck[];
  abolished?: boolean;
  track?: Track;
  sea?: Sea;
  governor?: Governor | null;
  cities: Site[];
  routes: Site[];
}

export interface Link {
  id: string;
  a: string;
  b: string;
  circular: boolean;
  controller: number | null;
  token: Token | null;
  /** a Blockade (Imperialism) covers the link and its token */
  blockade?: boolean;
}

/** An Exploit tile, or a variant shown beside them. */
export interface ExploitTile {
  id: string;
  key?: string;
  name: string;
  rule?: string;
  text?: string;
  active?: boolean;
  regions?: string[];
  shields?: number[];
  shield?: string;
  number?: number;
}

/** What drawBoard reads of the state. */
export interface BoardState {
  players_count: number;
  ruleset: string;
  board: string;
  round: number;
  phase: string;
  regions: Region[];
  links: Link[];
  pile: Card[];
  exploits: ExploitTile[];
  variants: ExploitTile[];
}

// ---- the post-game review (GET /api/games/{id}/review)

export type Label = "best" | "good" | "inaccuracy" | "mistake" | "blunder";

/** A decision reviewed: the move played, the bot's, what the one played lost. */
export interface ReviewDecision {
  step: number;
  seat: number;
  round?: number;
  phase: string;
  label: Label;
  played: string;
  best: string;
  glory_loss: number;
  win_loss: number;
  /** every player's expected final glory after it */
  glory_after: number[];
}

/** A player's summary. */
export interface ReviewPlayer {
  seat: number;
  final?: number | null;
  accuracy: number;
  decisions: number;
  labels: Record<string, number>;
  glory_lost: number;
  win_lost: number;
  by_phase?: Record<string, number>;
  /** the steps of the biggest mistakes */
  worst: number[];
}

export interface Review {
  config: { players: number };
  curve?: { step: number; round: number; glory: number[] }[];
  actions: number;
  decisions: ReviewDecision[];
  players: ReviewPlayer[];
  final_scores?: number[];
  thresholds?: Record<string, { glory_loss_below?: number; win_loss_below: number }>;
  iterations: number;
  bot?: string;
  policy?: string;
}

/** A decision's moves in words and the places they were played at. */
export interface ReviewMoves {
  played?: string;
  best?: string;
  played_targets?: string[];
  best_targets?: string[];
}

/** How a game's review stands, and the review once done. */
export interface ReviewBody {
  status: "none" | "queued" | "running" | "done" | "failed";
  review?: Review | null;
  moves?: Record<string, ReviewMoves>;
  total?: number | null;
  done?: number;
  eta_seconds?: number | null;
  iterations?: number;
  bot?: string;
  policy?: string;
  error?: string | null;
  enabled?: boolean;
}

// ---- the host panel (GET /api/games/{id}/host)

/** A seat as the host sees it: its link and when its player was last there. */
export interface HostSeat extends Seat {
  seat: number;
  token?: string | null;
  url?: string | null;
  bot?: string | null;
  last_moved?: string | null;
  last_seen?: string | null;
}

export interface HostPanel {
  seq: number;
  now?: string;
  title?: string | null;
  host_url: string;
  over?: boolean;
  ended?: string | null;
  clock?: Clock | null;
  seats: HostSeat[];
}
