"""A token's bounds are the token service's: the same out-of-range value
gets the same field error over the API and over the live room."""

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from vtt.api.serializers import TokenPatchIn
from vtt.tabletop.services.tokens import UPDATABLE

pytestmark = pytest.mark.django_db(transaction=True)

CASES = [
    ("create", {"size": 11}, "size"),
    ("create", {"size": 0}, "size"),
    ("update", {"size": 11}, "size"),
    ("update", {"size": -1}, "size"),
    ("move", {"version": 0}, "version"),
    ("move", {"version": -3}, "version"),
    ("move", {"version": 2**40}, "version"),
]


def rest_answer(room, action, values) -> dict:
    client = APIClient()
    client.force_authenticate(get_user_model().objects.get(pk=room.users["gm"]))
    tenrec = room.tokens["tenrec"]
    if action == "create":
        body = {"name": "Rat", "x": 2, "y": 2, **values}
        response = client.post(f"/api/scenes/{room.scene_id}/tokens/", body, format="json")
    elif action == "update":
        response = client.patch(f"/api/tokens/{tenrec}/", values, format="json")
    else:
        body = {"x": 3, "y": 3, **values}
        response = client.post(f"/api/tokens/{tenrec}/move/", body, format="json")
    assert response.status_code == 400, response.content
    return response.json()["error"]


def frame_for(room, action, values) -> dict:
    tenrec = room.tokens["tenrec"]
    if action == "create":
        return {"type": "token.create", "name": "Rat", "x": 2, "y": 2, **values}
    if action == "update":
        return {"type": "token.update", "token": tenrec, "changes": values}
    return {"type": "token.move", "token": tenrec, "x": 3, "y": 3, **values}


@pytest.mark.parametrize("action, values, field", CASES)
async def test_both_doors_give_the_same_field_error(room, clients, action, values, field):
    by_rest = await database_sync_to_async(rest_answer)(room, action, values)
    gm = await clients(room, "gm")
    by_socket = await gm.ask({**frame_for(room, action, values), "id": "b"})
    assert by_socket["type"] == "error"
    assert (by_socket["code"], by_socket["field"]) == (by_rest["code"], by_rest["field"])
    assert by_socket["field"] == field and by_socket["message"] == by_rest["message"]


def test_the_api_updates_what_the_service_updates():
    assert set(TokenPatchIn().fields) == set(UPDATABLE)
