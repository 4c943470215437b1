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
export interface State {
  round: number;
  rounds: number;
  phase: string;
  crown: number;
  current_player: number;
  over?: boolean;
  players: { seat: number; [key: string]: unknown }[];
  [key: string]: unknown;
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
