"""The browser-side rules every answer carries (docs/security.md, "What
the browser is told"): a Content-Security-Policy and a Permissions-Policy.
Django's SecurityMiddleware and XFrameOptionsMiddleware add the rest
(nosniff, Referrer-Policy, Cross-Origin-Opener-Policy, X-Frame-Options).

The pages run only scripts and styles served from the site itself: no
inline <script>, no event handler attribute, no style attribute, no
eval. Page data travels as `json_script` (type application/json, which is
never run) read by a module. A script slipped into a character's name
or a chat line would therefore not run even if a template forgot to escape
it. The one exception is the API's documentation page (Swagger UI), whose
bundle styles its own elements from script."""

from django.conf import settings
from django.core.exceptions import DisallowedHost

API_DOCS = "api-docs"


def policy(request) -> str:
    try:
        host = request.get_host()
        sockets = f" ws://{host} wss://{host}"
    except DisallowedHost:  # answered 400 already; nothing to connect to
        sockets = ""
    images = " ".join(["'self'", "data:", *settings.MEDIA_ORIGINS])
    styles = "'self'"
    match = getattr(request, "resolver_match", None)
    if match is not None and match.url_name == API_DOCS:
        # Swagger UI's bundle writes <style> elements and style attributes
        # of its own; its scripts still come from the site alone.
        styles = "'self' 'unsafe-inline'"
    return "; ".join(
        [
            "default-src 'self'",
            "script-src 'self'",
            f"style-src {styles}",
            f"img-src {images}",
            # The room's socket; 'self' covers ws: only in newer browsers.
            f"connect-src 'self'{sockets}",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


# No page uses any of these; a script that found its way in could not either.
PERMISSIONS = ", ".join(
    f"{feature}=()"
    for feature in (
        "camera",
        "microphone",
        "geolocation",
        "payment",
        "usb",
        "serial",
        "bluetooth",
        "midi",
        "magnetometer",
        "gyroscope",
        "accelerometer",
        "display-capture",
        "browsing-topics",
    )
)


class SecurityHeadersMiddleware:
    """First of MIDDLEWARE, so static files and every error carry the
    headers too. A view's own header is left as it set it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", policy(request))
        response.headers.setdefault("Permissions-Policy", PERMISSIONS)
        # XFrameOptionsMiddleware sits last and misses an answer an earlier
        # middleware made (a Host not allowed): the CSP's frame-ancestors
        # says the same to newer browsers.
        response.headers.setdefault("X-Frame-Options", settings.X_FRAME_OPTIONS)
        return response
