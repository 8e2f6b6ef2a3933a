"""Static files answered on the event loop, before Django's handler.

A room page loads some ninety ES modules. Through Django each one went to
the single thread Django keeps for synchronous code (WhiteNoise is
synchronous), queued there with the pages and the API, and cost the worker
about a millisecond of CPU. Here the same parts decide the same answer:
WhiteNoise finds the file and answers it (compressed variant, 304, range),
and the middleware that stand before WhiteNoise in MIDDLEWARE add their
headers (the Content-Security-Policy, nosniff, ...), called as Django
calls them, so a change to MIDDLEWARE reaches static files by itself.
Anything else, a path WhiteNoise does not know included, goes to Django."""

import io

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.utils.module_loading import import_string

WHITENOISE = "whitenoise.middleware.WhiteNoiseMiddleware"
CHUNK = 64 * 1024


class NotStatic(Exception):
    """The path is under the static prefix but names no static file."""


class StaticFiles:
    """ASGI application: static files itself, every other request `app`'s."""

    def __init__(self, app):
        self.app = app
        self._whitenoise = None
        self._chain = None

    def _ready(self) -> None:
        # Built at the first static request: WhiteNoise reads the settings
        # and, unless it refreshes, lists every collected file.
        from whitenoise.middleware import WhiteNoiseMiddleware

        self._whitenoise = WhiteNoiseMiddleware(get_response=None)
        before = settings.MIDDLEWARE[: settings.MIDDLEWARE.index(WHITENOISE)]
        chain = self._answer
        for path in reversed(before):
            chain = import_string(path)(chain)
        self._chain = chain

    def _answer(self, request):
        whitenoise = self._whitenoise
        if whitenoise.autorefresh:
            found = whitenoise.find_file(request.path_info)
        else:
            found = whitenoise.files.get(request.path_info)
        if found is None:
            raise NotStatic
        return whitenoise.serve(found, request)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or WHITENOISE not in settings.MIDDLEWARE:
            return await self.app(scope, receive, send)
        if self._chain is None:
            self._ready()
        if not scope["path"].startswith(self._whitenoise.static_prefix):
            return await self.app(scope, receive, send)
        try:
            response = self._chain(ASGIRequest(scope, io.BytesIO()))
        except Exception:
            # Not a file, or a middleware refused the request (a Host not
            # allowed): Django answers it as it answers any other.
            return await self.app(scope, receive, send)
        try:
            await send(
                {
                    "type": "http.response.start",
                    "status": response.status_code,
                    "headers": [
                        (name.encode("latin-1"), value.encode("latin-1"))
                        for name, value in response.items()
                    ],
                }
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
