// A refusal from the server (an intent's error frame or a REST error body)
// as one line a person can read: the field it names, then the reason.

export function describeError(error) {
  if (!error) return "Something went wrong.";
  const message = error.message || error.code || "refused";
  return error.field && !message.includes(error.field) ? `${error.field}: ${message}` : message;
}
