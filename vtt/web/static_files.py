"""Static files answered on the event loop, before Django's handler.

A room page loads some ninety ES modules. Through Django each one went to
the single thread Django keeps for synchronous code (WhiteNoise is
synchronous), queued there with the pages and the API, and cost the worker
about a millisecond of CPU. Here the same parts decide the same answer:
WhiteNoise's own middleware finds the file and answers it (compressed
variant, 304, range), and the middleware that stand before it in
MIDDLEWARE add their headers (the Content-Security-Policy, nosniff, ...),
called as Django calls them, so a change to MIDDLEWARE reaches static
files by itself. Anything else, a path WhiteNoise does not know included,
goes to Django."""

import io

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.utils.module_loading import import_string

WHITENOISE = "whitenoise.middleware.WhiteNoiseMiddleware"
CHUNK = 64 * 1024


class NotStatic(Exception):
    """WhiteNoise passed the request on: it names no static file."""


def _not_static(request):
    raise NotStatic


class StaticFiles:
    """ASGI application: static files itself, every other request `app`'s."""

    def __init__(self, app):
        self.app = app
        self._chain = None
        self._prefix = None  # None: WhiteNoise is not in MIDDLEWARE

    def _ready(self) -> None:
        # Built at the first request: WhiteNoise reads the settings and,
        # unless it refreshes, lists every collected file.
        self._chain = _not_static
        if WHITENOISE not in settings.MIDDLEWARE:
            return
        whitenoise = import_string(WHITENOISE)(_not_static)
        self._prefix = whitenoise.static_prefix
        self._chain = whitenoise
        for path in reversed(settings.MIDDLEWARE[: settings.MIDDLEWARE.index(WHITENOISE)]):
            self._chain = import_string(path)(self._chain)

    async def __call__(self, scope, receive, send):
        if self._chain is None:
            self._ready()
        if self._prefix is None or not scope["path"].startswith(self._prefix):
            return await self.app(scope, receive, send)
        try:
            response = self._chain(ASGIRequest(scope, io.BytesIO()))
        except Exception:
            # Not a file, or a middleware refused the request (a Host not
            # allowed): Django answers it as it answers any other.
            return await self.app(scope, receive, send)
        try:
            # Headers and cookies as Django's own handler sends them.
            headers = [
                (name.encode("latin-1"), value.encode("latin-1"))
                for name, value in response.items()
            ]
            headers += [
                (b"Set-Cookie", cookie.output(header="").encode("ascii").strip())
                for cookie in response.cookies.values()
            ]
            await send(
                {"type": "http.response.start", "status": response.status_code, "headers": headers}
            )
            file = getattr(response, "file_to_stream", None)
            if not response.streaming:
                await send({"type": "http.response.body", "body": response.content})
            elif file is None:
                await send({"type": "http.response.body", "body": b""})
            else:
                while chunk := file.read(CHUNK):
                    await send({"type": "http.response.body", "body": chunk, "more_body": True})
                await send({"type": "http.response.body", "body": b""})
        finally:
            response.close()
