// Physical dice typed in by the player: faces in tape order, separated by
// spaces or commas, each a whole number from 1 to 6.

export function parseFaces(text) {
  const trimmed = (text || "").trim();
  if (!trimmed) return { error: "Enter the faces you rolled, in tape order." };
  const faces = trimmed.split(/[\s,;]+/).map(Number);
  if (faces.some((f) => !Number.isInteger(f) || f < 1 || f > 6)) {
    return { error: "Each face is a whole number from 1 to 6." };
  }
  return { faces };
}
