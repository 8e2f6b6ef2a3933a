// The roller's share of every die (docs/dice.md): 16 random bytes from this
// browser, in hex, sent with each intent that may throw dice. The server
// derives the dice from its session's committed seed, the roll's number
// and this nonce, so neither side can pick the faces alone.

// Intents that throw dice; a chat line may be a roll ("/r 3D").
const THROWS = new Set(["roll", "attack", "encounter.initiative", "chat"]);

export function newNonce() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The intent with a fresh nonce when it may throw dice and has none. */
export function withNonce(intent) {
  return THROWS.has(intent.type) && !intent.nonce ? { ...intent, nonce: newNonce() } : intent;
}
