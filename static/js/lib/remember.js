// What this browser remembers between visits (localStorage). Storage may be
// refused (private windows, a full disk): then nothing is remembered and
// the page carries on with its defaults.

export function recall(key) {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function remember(key, value) {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // refused: the choice lasts for this page only
  }
}
