"""What an uploaded picture costs a real worker (`python -m vtt.serve`): the
process's peak resident memory (VmHWM, reset before each upload) may rise
by at most 100 MiB, for pictures refused by their header and for the
largest ones accepted, one at a time or several at once."""

import io
import re
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.error import HTTPError
from urllib.request import Request, urlopen

import pytest
from PIL import Image

from tests import served

MiB = 1024 * 1024
BUDGET_MIB = 100


def seed() -> dict:
    """A GM with a scene, a player with a character (in the server's
    database, in a subprocess); their API tokens."""
    from rest_framework.authtoken.models import Token

    from tests import factories

    people = factories.people(("gm", "player"))
    gm, player = people.values()
    campaign = factories.campaign_at_table(people)
    scene = factories.scene(campaign, gm, "Crypt", width=20, height=20)
    character = factories.character(campaign, gm, "Tenrec", owner_id=player.pk)
    return {
        "scene": scene.pk,
        "character": character.pk,
        "gm": Token.objects.create(user=gm).key,
        "player": Token.objects.create(user=player).key,
    }


def server_pid(port: int) -> int:
    """The served worker listening on `port` (seeded_site keeps its process)."""
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            args = cmdline.read_bytes().split(b"\0")
        except OSError:
            continue
        if b"vtt.serve" in args and str(port).encode() in args:
            return int(cmdline.parent.name)
    raise AssertionError(f"no vtt.serve process on port {port}")


def status(pid: int, field: str) -> int:
    text = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(rf"^{field}:\s+(\d+) kB", text, re.M).group(1)) * 1024


def picture(width: int, height: int, kind="PNG", mode="RGB") -> bytes:
    """A black picture: a large one compresses to very little."""
    buffer = io.BytesIO()
    Image.new(mode, (width, height)).save(buffer, kind)
    return buffer.getvalue()


class Site:
    def __init__(self, port: int, seeded: dict):
        self.port, self.seeded, self.pid = port, seeded, server_pid(port)

    def put(self, path: str, who: str, data: bytes) -> tuple[int, dict]:
        boundary = uuid.uuid4().hex
        body = (
            (
                f'--{boundary}\r\nContent-Disposition: form-data; name="image"; '
                f'filename="picture"\r\nContent-Type: application/octet-stream\r\n\r\n'
            ).encode()
            + data
            + f"\r\n--{boundary}--\r\n".encode()
        )
        request = Request(
            f"http://127.0.0.1:{self.port}{path}",
            data=body,
            method="PUT",
            headers={
                "Authorization": f"Token {self.seeded[who]}",
                "Content-Type": f"multipart/form-data; boundary={boundary}",
            },
        )
        try:
            with urlopen(request, timeout=120) as response:
                return response.status, response.read()
        except HTTPError as error:
            return error.code, error.read()

    def portrait(self, data: bytes) -> tuple[int, bytes]:
        return self.put(f"/api/characters/{self.seeded['character']}/portrait/", "player", data)

    def background(self, data: bytes) -> tuple[int, bytes]:
        return self.put(f"/api/scenes/{self.seeded['scene']}/background/", "gm", data)

    def peak_rise(self, upload) -> tuple[int, list]:
        """How far the worker's peak memory rises above where it stands
        while `upload()` runs, in bytes; and what upload() returned."""
        Path(f"/proc/{self.pid}/clear_refs").write_text("5")  # VmHWM := VmRSS
        before = status(self.pid, "VmHWM")
        answers = upload()
        return status(self.pid, "VmHWM") - before, answers


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("site")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MEDIA_ROOT", str(tmp_path / "media"))
        # glibc hands big buffers back to the system when they are freed only
        # below its mmap threshold, which it raises as big buffers come and
        # go: after that, each request thread's arena keeps the last
        # picture's buffers, and four threads' add up although the pictures
        # were worked on one at a time. A fixed threshold keeps the peak what
        # was held at once, which is what these tests measure.
        patch.setenv("MALLOC_MMAP_THRESHOLD_", "131072")
        with served.seeded_site(tmp_path, "tests.api.test_picture_memory:seed") as (port, seeded):
            site = Site(port, seeded)
            # Pillow's plugins and codecs are loaded once per process, not per upload.
            for kind in ("PNG", "JPEG", "WEBP"):
                assert site.portrait(picture(64, 48, kind))[0] == 200
                assert site.background(picture(64, 48, kind))[0] == 200
            yield site


def mib(size: int) -> str:
    return f"{size / MiB:.0f} MiB"


@pytest.mark.parametrize(
    ("target", "drawn", "accepted"),
    # What picture(...) draws: drawn by the test that sends it, not by every
    # process that collects the suite.
    [
        # The two: refused now by their headers, before any decoding.
        ("portrait", (8000, 5000), False),
        ("background", (8192, 8192), False),
        # The largest accepted of their kinds.
        ("portrait", (4000, 3000, "PNG", "RGBA"), True),
        ("portrait", (8000, 6000, "JPEG"), True),  # decoded at a quarter
        ("portrait", (1549, 1549, "WEBP", "RGBA"), True),
        ("background", (4000, 4000, "PNG", "RGBA"), True),
        ("background", (4000, 4000, "JPEG"), True),
        ("background", (1788, 1788, "WEBP", "RGBA"), True),
    ],
    ids=[
        "portrait-png-8000x5000",
        "background-png-8192x8192",
        "portrait-png-rgba-4000x3000",
        "portrait-jpeg-8000x6000",
        "portrait-webp-1549x1549",
        "background-png-rgba-4000x4000",
        "background-jpeg-4000x4000",
        "background-webp-1788x1788",
    ],
)
def test_an_upload_raises_the_workers_peak_memory_by_at_most_100_mib(site, target, drawn, accepted):
    data = picture(*drawn)
    send = site.portrait if target == "portrait" else site.background
    rise, (code, body) = site.peak_rise(lambda: send(data))
    assert rise < BUDGET_MIB * MiB, f"{target}: the worker's peak rose by {mib(rise)}"
    assert code == (200 if accepted else 400), body
    if not accepted:
        assert b"image_too_large" in body


def test_uploads_at_once_are_worked_on_one_at_a_time(site):
    data = picture(3000, 3000)  # about 35 MiB decoded: four at once would be 140

    def four_at_once():
        with ThreadPoolExecutor(4) as pool:
            return list(pool.map(lambda _: site.portrait(data), range(4)))

    rise, answers = site.peak_rise(four_at_once)
    assert [code for code, _ in answers] == [200] * 4, answers
    assert rise < BUDGET_MIB * MiB, f"four portraits at once raised the peak by {mib(rise)}"
