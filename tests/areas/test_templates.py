"""Area templates through their service, REST and the live room: who may
place and remove which, their events, the bounds refused with a message
naming the field (nothing stored, the socket kept), and their journal lines."""

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client

from tests import factories
from tests.live.conftest import make_room
from vtt.areas import services as areas
from vtt.areas.models import AreaTemplate
from vtt.records import journal
from vtt.tabletop import policy, services
from vtt.tabletop.models import Campaign, PlaySession, RoomEvent
from vtt.tabletop.services.errors import NotAllowed, NotFound, ServiceError
from vtt.tabletop.visibility import Viewer

CONE = {"shape": "cone", "x": 4, "y": 4, "size": 3, "angle": 45}


def users(room) -> dict:
    return {k: get_user_model().objects.get(pk=pk) for k, pk in room.users.items()}


def place(room, who="player", **fields):
    return areas.template_place(scene_id=room.scene_id, by=users(room)[who], **{**CONE, **fields})


def seq(room) -> int:
    return RoomEvent.objects.filter(campaign_id=room.campaign_id).count()


@pytest.mark.django_db
def test_a_player_places_a_cone_everyone_sees_and_takes_it_off():
    room = make_room(prefix="tp-")
    template = place(room, label="Burning hands")
    placed = RoomEvent.objects.filter(kind="template.placed").get()
    assert placed.visibility == "public"
    assert placed.data["template"] == areas.template_data(template)
    assert placed.data["template"]["by"]["id"] == room.users["player"]
    areas.template_remove(template_id=template.pk, by=users(room)["player"])
    removed = RoomEvent.objects.filter(kind="template.removed").get()
    assert removed.data["template"]["id"] == template.pk
    assert not AreaTemplate.objects.exists()


@pytest.mark.django_db
def test_a_gm_only_template_is_the_gms_and_a_player_may_not_place_one():
    room = make_room(prefix="tg-")
    secret = place(room, who="gm", gm_only=True)
    assert RoomEvent.objects.get(kind="template.placed").visibility == "gm"
    with pytest.raises(NotAllowed) as refused:
        place(room, gm_only=True)
    assert refused.value.field == "gm_only"
    with pytest.raises(NotAllowed):
        place(room, who="observer")
    # The player does not know of the GM's template at all.
    with pytest.raises(NotFound):
        areas.template_remove(template_id=secret.pk, by=users(room)["player"])
    player = Viewer(room.users["player"], "player")
    assert list(areas.templates_for(player, room.campaign_id)) == []


@pytest.mark.django_db
def test_a_player_removes_their_own_templates_only():
    room = make_room(prefix="tr-")
    gms = place(room, who="gm")
    with pytest.raises(NotAllowed):
        areas.template_remove(template_id=gms.pk, by=users(room)["player"])
    theirs = place(room)
    with pytest.raises(NotAllowed):
        areas.template_remove(template_id=theirs.pk, by=users(room)["other"])
    areas.template_remove(template_id=theirs.pk, by=users(room)["gm"])
    assert list(AreaTemplate.objects.values_list("pk", flat=True)) == [gms.pk]


@pytest.mark.django_db
def test_a_player_places_on_the_rooms_scene_only():
    room = make_room(prefix="ts-")
    who = users(room)
    spare = factories.scene(Campaign.objects.get(pk=room.campaign_id), who["gm"], "Cellar")
    with pytest.raises(NotFound):
        areas.template_place(scene_id=spare.pk, by=who["player"], **CONE)
    # The GM prepares the next map: their event is their own until then.
    areas.template_place(scene_id=spare.pk, by=who["gm"], **CONE)
    assert RoomEvent.objects.get(kind="template.placed").visibility == "gm"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "fields, field, words",
    [
        ({"size": 0}, "size", "between 1 and 100 squares (5 to 500 ft), not 0"),
        ({"size": 10_000}, "size", "between 1 and 100 squares (5 to 500 ft), not 10000"),
        ({"size": "3"}, "size", "whole number of squares"),
        ({"shape": "hexagon"}, "shape", "must be one of"),
        ({"x": 21}, "x", "between 0 and 20"),
        ({"angle": 360}, "angle", "between 0 and 359"),
        ({"label": "x" * 41}, "label", "at most 40"),
    ],
)
def test_bad_input_is_refused_by_field_and_nothing_is_stored(fields, field, words):
    room = make_room(prefix="tb-")
    before = seq(room)
    with pytest.raises(ServiceError) as refused:
        place(room, **fields)
    assert refused.value.field == field
    assert words in refused.value.message
    assert not AreaTemplate.objects.exists()
    assert seq(room) == before


@pytest.mark.django_db
def test_rest_places_lists_and_removes_and_refuses_a_zero_size():
    room = make_room(prefix="tw-")
    who = users(room)
    player, gm = Client(), Client()
    player.force_login(who["player"])
    gm.force_login(who["gm"])
    url = f"/api/campaigns/{room.campaign_id}/templates/"
    body = {"scene": room.scene_id, **CONE}
    made = player.post(url, body, content_type="application/json")
    assert made.status_code == 201, made.content
    assert made.json()["shape"] == "cone" and made.json()["size"] == 3
    secret = gm.post(url, {**body, "gm_only": True}, content_type="application/json")
    assert secret.status_code == 201
    zero = player.post(url, {**body, "size": 0}, content_type="application/json")
    assert zero.status_code == 400
    assert zero.json()["error"]["field"] == "size"
    assert "between 1 and 100 squares" in zero.json()["error"]["message"]
    assert AreaTemplate.objects.count() == 2
    assert [t["id"] for t in player.get(url).json()["results"]] == [made.json()["id"]]
    assert len(gm.get(f"{url}?scene={room.scene_id}").json()["results"]) == 2
    gone = player.delete(f"/api/templates/{made.json()['id']}/")
    assert gone.status_code == 204
    hidden = player.delete(f"/api/templates/{secret.json()['id']}/")
    assert hidden.status_code == 404


@pytest.mark.django_db
def test_the_journal_says_who_placed_what():
    room = make_room(prefix="tj-")
    place(room, label="Burning hands")
    place(room, who="gm", shape="circle", size=4, gm_only=True)
    session = PlaySession.objects.get(campaign_id=room.campaign_id)
    gm_view = journal.journal(session, Viewer(room.users["gm"], "gm")).markdown()
    player_view = journal.journal(session, Viewer(room.users["player"], "player")).markdown()
    assert "tj-player placed a 15-ft cone (Burning hands) template." in player_view
    assert "tj-gm placed a 20-ft burst template." in gm_view and "GM only" in gm_view
    assert "burst" not in player_view


@pytest.mark.django_db
def test_under_fog_a_template_everyone_sees_reaches_every_group_whole():
    room = make_room(prefix="tf-")
    gm = users(room)["gm"]
    services.scene_update(scene_id=room.scene_id, by=gm, walls=[[10, 0, 10, 20]], fog=True)
    # East of the wall, out of the party's view: a template is no token.
    place(room, x=15, y=15)
    event = RoomEvent.objects.get(kind="template.placed")
    assert "sight" in event.data  # annotated, as every event on a fog scene
    campaign = Campaign.objects.get(pk=room.campaign_id)
    player = policy.viewer_in(room.users["player"], "player", campaign.settings)
    view = policy.event_view(event, player)
    assert view["type"] == "template.placed"
    assert view["data"] == {"template": areas.template_data(AreaTemplate.objects.get())}


pytestmark_live = pytest.mark.django_db(transaction=True)


@pytestmark_live
async def test_the_socket_places_a_template_and_keeps_going_after_a_bad_size(clients):
    room = await database_sync_to_async(make_room)(prefix="tl-")
    gm, player = await clients(room, "gm"), await clients(room, "player")
    huge = await player.ask({"type": "template.place", "id": 1, **CONE, "size": 10_000})
    assert huge["type"] == "error" and huge["field"] == "size", huge
    assert "between 1 and 100 squares" in huge["message"]
    assert await database_sync_to_async(AreaTemplate.objects.count)() == 0
    # The socket stays: the next intent is carried out.
    made = await player.ask({"type": "template.place", "id": 2, **CONE, "label": "Breath"})
    assert made["type"] == "ack", made
    seen = await gm.event("template.placed")
    assert seen["data"]["template"] == made["template"]
    gone = await gm.ask({"type": "template.remove", "id": 3, "template": made["template"]["id"]})
    assert gone["type"] == "ack", gone
    assert (await player.event("template.removed"))["data"]["template"]["id"] == gone["template_id"]
    fresh = await clients(room, "player")
    assert fresh.first["templates"] == []
