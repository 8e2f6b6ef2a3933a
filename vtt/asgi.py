"""ASGI entry point: HTTP through Django (static files answered before it,
vtt/web/static_files.py), websockets through Channels.

Websockets authenticate with the site's session cookie and must come from a
page of the site itself: the same scheme, host and port (vtt/live/origin.py),
so a page of another site or of another port cannot open a room."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "vtt.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from vtt.live.origin import SameOriginValidator  # noqa: E402
from vtt.live.routing import websocket_urlpatterns  # noqa: E402
from vtt.web.static_files import StaticFiles  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": StaticFiles(django_asgi_app),
        "websocket": SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
