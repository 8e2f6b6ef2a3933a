// JSON over HTTP with the session cookie and Django's CSRF header.

export function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

async function answer(response) {
  if (response.status === 204) return { ok: true, status: 204, data: null };
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = { error: { code: "bad_response", message: `the server answered ${response.status}` } };
  }
  return { ok: response.ok, status: response.status, data };
}

export async function postJSON(url, body, { signal } = {}) {
  return sendJSON(url, "POST", body, { signal });
}

export async function patchJSON(url, body, { signal } = {}) {
  return sendJSON(url, "PATCH", body, { signal });
}

async function sendJSON(url, method, body, { signal } = {}) {
  const response = await fetch(url, {
    method,
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    body: JSON.stringify(body),
    signal,
  });
  return answer(response);
}

/** A multipart body (a file upload) with any method; `form` may be null. */
export async function sendForm(url, method, form = null) {
  const response = await fetch(url, {
    method,
    credentials: "same-origin",
    headers: { Accept: "application/json", "X-CSRFToken": csrfToken() },
    body: form,
  });
  return answer(response);
}

export async function getJSON(url, { signal } = {}) {
  const response = await fetch(url, {
    credentials: "same-origin",
    headers: { Accept: "application/json" },
    signal,
  });
  return answer(response);
}
