// A Web Storage stand-in (localStorage and sessionStorage) for the modules that keep
// things in the browser: a Map behind the Storage interface's methods, nothing more.
// Import it before those modules: tokens.js reads its storage as it loads.

export class MemoryStorage {
  constructor() {
    /** @type {Map<string, string>} */
    this.items = new Map();
  }

  get length() {
    return this.items.size;
  }

  /** @param {number} i */
  key(i) {
    return [...this.items.keys()][i] ?? null;
  }

  /** @param {string} key */
  getItem(key) {
    return this.items.has(key) ? /** @type {string} */ (this.items.get(key)) : null;
  }

  /** @param {string} key @param {string} value */
  setItem(key, value) {
    this.items.set(key, String(value));
  }

  /** @param {string} key */
  removeItem(key) {
    this.items.delete(key);
  }

  clear() {
    this.items.clear();
  }
}

export const local = new MemoryStorage();
export const session = new MemoryStorage();
Object.assign(globalThis, { localStorage: local, sessionStorage: session });
