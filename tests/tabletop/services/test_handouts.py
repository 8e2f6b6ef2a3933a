"""Handouts: the GM makes them (a title, a picture and/or Markdown rendered
safely) and shares them; each member let in gets one event addressed to
them alone; bad input is refused with nothing stored."""

from html.parser import HTMLParser

import pytest

from vtt.handouts import services as handouts
from vtt.handouts import text as handout_text
from vtt.tabletop import event_kinds, policy, services
from vtt.tabletop.models import Handout, HandoutShare, RoomEvent
from vtt.tabletop.services.access import membership

from ..images import image_bytes, upload

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def make(table, **fields):
    fields = {"title": "A letter", "text": "Meet me at **midnight**.", **fields}
    return handouts.handout_create(campaign_id=table.campaign.pk, by=table.gm, **fields)


def shared_events(table):
    return list(
        RoomEvent.objects.filter(campaign=table.campaign, kind=event_kinds.HANDOUT_SHARED).order_by(
            "seq"
        )
    )


def test_the_gm_makes_a_handout_with_its_text_rendered(table):
    handout = make(table)
    assert handout.html == "<p>Meet me at <strong>midnight</strong>.</p>\n"
    assert not handout.everyone and not handout.shares.exists()
    assert shared_events(table) == []  # the GM's alone until shared


def test_a_handout_with_only_a_picture_is_stored_re_encoded(table, media):
    handout = make(table, text="", image=upload(image_bytes(40, 30)))
    assert handout.image.name.startswith("handouts/")
    assert (media / handout.image.name).is_file()
    assert handouts.handout_data(handout)["image"].endswith(handout.image.name)


class Markup(HTMLParser):
    """The tags and link targets a browser would make of some HTML."""

    def __init__(self, html):
        super().__init__()
        self.tags, self.hrefs, self.attrs = [], [], []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += [name for name, _ in attrs]
        self.hrefs += [value for name, value in attrs if name == "href"]


def test_script_and_javascript_links_are_neutralised():
    html = handout_text.render(
        "<script>alert(1)</script>\n\n[go](javascript:alert(1)) [Go](JaVaScRiPt:alert(1))"
        ' <a href="javascript:alert(1)">x</a> <img src=x onerror=alert(1)>'
        " [data](data:text/html,hi) ![far](http://elsewhere.example/x.png)"
        " [ok](https://example.com)"
    )
    markup = Markup(html)
    assert set(markup.tags) == {"p", "a"}  # no script, no img: typed HTML stays text
    assert markup.hrefs == ["https://example.com"]  # no javascript:, no data:
    assert set(markup.attrs) == {"href", "rel"}  # no onerror, no style
    assert "elsewhere.example" not in html  # no picture from anywhere else
    assert "&lt;script&gt;" in html  # what was typed is still there, as text


@pytest.mark.parametrize(
    "fields, field",
    [
        ({"title": "  "}, "title"),
        ({"title": "x" * 201}, "title"),
        ({"text": "x" * (handout_text.MAX_TEXT + 1)}, "text"),
        ({"text": ""}, "text"),  # neither text nor picture
        ({"image": upload(b"not an image at all")}, "image"),
    ],
)
def test_bad_input_is_refused_and_nothing_stored(table, media, fields, field):
    with pytest.raises(services.ServiceError) as refused:
        make(table, **fields)
    assert refused.value.field == field
    assert not Handout.objects.exists()
    assert not (media / "handouts").exists() or not any((media / "handouts").iterdir())


def test_only_a_gm_makes_handouts(table):
    for who in (table.player, table.observer):
        with pytest.raises(services.NotAllowed):
            handouts.handout_create(campaign_id=table.campaign.pk, by=who, title="x", text="y")
    with pytest.raises(services.NotFound):
        handouts.handout_create(
            campaign_id=table.campaign.pk, by=table.outsider, title="x", text="y"
        )


def test_shared_with_one_member_only_they_and_the_gm_see_it(table):
    handout = make(table)
    handouts.handout_share(handout_id=handout.pk, by=table.gm, members=[table.player.pk])
    [event] = shared_events(table)
    assert event.data["to"]["id"] == table.player.pk
    assert event.data["handout"]["title"] == "A letter"

    def sees(who) -> bool:  # anything of the event beyond its number
        viewer = policy.member_viewer(membership(table.campaign.pk, who))
        return policy.event_view(event, viewer)["type"] != event_kinds.REDACTED

    seen = {
        who.username: sees(who) for who in (table.gm, table.player, table.other, table.observer)
    }
    assert seen == {"gm": True, "player": True, "other": False, "observer": False}
    for who, sees in (("player", True), ("other", False), ("observer", False)):
        member = membership(table.campaign.pk, getattr(table, who))
        assert policy.sees_handout(policy.member_viewer(member), handout) is sees
        assert (
            handout in handouts.handouts_seen(table.campaign.pk, getattr(table, who))[0]
        ) is sees


def test_revealing_more_lets_more_in_and_tells_only_the_new(table):
    handout = make(table)
    handouts.handout_share(handout_id=handout.pk, by=table.gm, members=[table.player.pk])
    handouts.handout_share(
        handout_id=handout.pk, by=table.gm, members=[table.player.pk, table.other.pk]
    )
    assert [e.data["to"]["id"] for e in shared_events(table)] == [table.player.pk, table.other.pk]
    handouts.handout_share(handout_id=handout.pk, by=table.gm, everyone=True)
    handout.refresh_from_db()
    assert handout.everyone
    told = [e.data["to"]["id"] for e in shared_events(table)]
    assert told == [table.player.pk, table.other.pk, table.observer.pk]
    assert set(HandoutShare.objects.values_list("user_id", flat=True)) == set(told)


def test_sharing_refuses_strangers_players_and_nothing(table):
    handout = make(table)
    with pytest.raises(services.ServiceError) as refused:
        handouts.handout_share(handout_id=handout.pk, by=table.gm, members=[table.outsider.pk])
    assert refused.value.field == "members"
    with pytest.raises(services.ServiceError):
        handouts.handout_share(handout_id=handout.pk, by=table.gm)
    with pytest.raises(services.NotFound):  # a player does not know of it
        handouts.handout_share(handout_id=handout.pk, by=table.player, members=[table.other.pk])
    handouts.handout_share(handout_id=handout.pk, by=table.gm, members=[table.player.pk])
    with pytest.raises(services.NotAllowed):  # one who reads it may still not share it
        handouts.handout_share(handout_id=handout.pk, by=table.player, members=[table.other.pk])
    assert [e.data["to"]["id"] for e in shared_events(table)] == [table.player.pk]


def test_a_deleted_campaign_takes_its_handouts_pictures(
    table, media, django_capture_on_commit_callbacks
):
    handout = make(table, image=upload(image_bytes(20, 20)))
    make(table)  # one without a picture
    stored = media / handout.image.name
    assert stored.is_file()
    with django_capture_on_commit_callbacks(execute=True):
        services.campaign_delete(campaign_id=table.campaign.pk, by=table.gm)
    assert not Handout.objects.exists()
    assert not stored.exists()
