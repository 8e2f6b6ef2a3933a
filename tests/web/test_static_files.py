"""Static files over the ASGI application (vtt/web/static_files.py): the
answer Django gives them, headers and all, without going through Django;
whatever is not a static file still reaches Django."""

import gzip

import pytest
from asgiref.sync import sync_to_async
from channels.testing import HttpCommunicator
from django.core.asgi import get_asgi_application
from django.test import Client

from vtt.web.static_files import StaticFiles

FILES = ["/static/js/room/socket.js", "/static/css/site.css"]


@pytest.fixture
def static_app(settings):
    # From the sources, as the browser tests' sites serve them: a fresh
    # clone has collected nothing.
    settings.WHITENOISE_USE_FINDERS = True
    settings.WHITENOISE_AUTOREFRESH = True
    return StaticFiles(get_asgi_application())


async def over_asgi(app, path, method="GET", host="testserver", headers=()):
    communicator = HttpCommunicator(app, method, path, headers=[(b"host", host.encode()), *headers])
    answer = await communicator.get_response(timeout=5)
    named = {name.decode().lower(): value.decode() for name, value in answer["headers"]}
    return answer["status"], named, answer["body"]


@sync_to_async
def through_django(path, method="GET", host="testserver", **headers):
    response = getattr(Client(), method.lower())(path, HTTP_HOST=host, **headers)
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return response.status_code, {name.lower(): value for name, value in response.items()}, body


@pytest.mark.parametrize("path", FILES)
@pytest.mark.parametrize("host", ["testserver", "elsewhere.example"])
async def test_a_static_file_gets_djangos_own_answer(static_app, path, host):
    ours = await over_asgi(static_app, path, host=host)
    assert ours[0] == 200 and len(ours[2]) > 100
    assert "default-src 'self'" in ours[1]["content-security-policy"]
    assert ours[1]["x-content-type-options"] == "nosniff"
    assert ours == await through_django(path, host=host)


async def test_a_file_the_browser_holds_is_not_sent_again(static_app):
    _, headers, _ = await over_asgi(static_app, FILES[0])
    status, again, body = await over_asgi(
        static_app, FILES[0], headers=[(b"if-none-match", headers["etag"].encode())]
    )
    assert (status, body) == (304, b"")
    assert again["content-security-policy"] == headers["content-security-policy"]


async def test_head_and_a_range_are_answered_as_whitenoise_answers_them(static_app):
    _, whole, body = await over_asgi(static_app, FILES[0])
    status, head, nothing = await over_asgi(static_app, FILES[0], method="HEAD")
    assert (status, nothing, head["content-length"]) == (200, b"", whole["content-length"])
    status, part, piece = await over_asgi(
        static_app, FILES[0], headers=[(b"range", b"bytes=10-19")]
    )
    assert (status, piece) == (206, body[10:20])
    assert part["content-range"] == f"bytes 10-19/{len(body)}"


async def test_what_is_no_static_file_reaches_django(static_app):
    status, headers, body = await over_asgi(static_app, "/static/js/no-such-module.js")
    assert status == 404 and b"<html" in body.lower()
    assert (status, headers, body) == await through_django("/static/js/no-such-module.js")
    status, _, body = await over_asgi(static_app, "/accounts/login/")
    assert status == 200 and b'name="csrfmiddlewaretoken"' in body
    status, _, _ = await over_asgi(static_app, FILES[0], method="POST")
    assert status == 405


async def test_collected_files_go_compressed_as_django_sends_them(settings, tmp_path):
    """As a deployment serves them: from STATIC_ROOT, listed once, the
    compressed copy to a browser that takes it."""
    script = b"export const answer = 42;\n" * 200
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "answer.js").write_bytes(script)
    (tmp_path / "js" / "answer.js.gz").write_bytes(gzip.compress(script))
    settings.STATIC_ROOT = tmp_path
    settings.WHITENOISE_AUTOREFRESH = False
    app = StaticFiles(get_asgi_application())
    path, gzipped = "/static/js/answer.js", [(b"accept-encoding", b"gzip")]
    status, headers, body = await over_asgi(app, path, headers=gzipped)
    assert (status, headers["content-encoding"]) == (200, "gzip")
    assert gzip.decompress(body) == script
    assert (status, headers, body) == await through_django(path, HTTP_ACCEPT_ENCODING="gzip")
    status, headers, body = await over_asgi(app, path)
    assert (status, body) == (200, script) and "content-encoding" not in headers
