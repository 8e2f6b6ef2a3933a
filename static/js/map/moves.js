// A token's move asked of the server: drawn at once where it goes (pending),
// settled by the server's answer, sprung back where the server has it, with
// the reason, when it is refused.

export function requestMove(board, id, x, y) {
  const token = board.tokens.get(id);
  const node = board.nodes.get(id);
  if (!token || !node) return;
  [x, y] = board.clampSquare(token, x, y);
  node.classList.add("pending");
  board.pieces.drawToken(node, token, [x, y]);
  board.options
    .onMove(token, x, y)
    .then((ack) => {
      node.classList.remove("pending");
      if (ack?.token) board.upsert(ack.token);
      board.options.status(`${token.name} moved to column ${x}, row ${y}.`);
    })
    .catch((error) => {
      node.classList.remove("pending");
      if (error?.token) board.upsert(error.token);
      const now = board.tokens.get(id);
      if (now) board.pieces.drawToken(node, now); // spring back to where the server has it
      board.options.onDragAt?.(token, null);
      board.options.status(`${token.name} did not move: ${error?.message || "refused"}.`, true);
    });
}
