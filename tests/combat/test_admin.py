"""The admin shows combat's records and changes none of them."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from vtt.combat.services.encounters import encounter_start

from .battle import ZOMBIE_FIGHT, attack

PAGES = ("encounter", "attack", "trailstep", "brokenweapon", "resourcestate", "undo")


@pytest.fixture
def admin_client_(battle):
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("root", "root@example.com", "x"))
    return client


def test_every_combat_record_is_listed_and_read_only(battle, admin_client_):
    made = attack(battle, weapon="Long sword", faces=ZOMBIE_FIGHT)
    encounter = encounter_start(scene_id=battle.scene.pk, by=battle.users["gm"])
    for page in PAGES:
        assert admin_client_.get(f"/admin/combat/{page}/").status_code == 200
    assert admin_client_.get(f"/admin/combat/attack/{made.pk}/change/").status_code == 200
    assert admin_client_.get(f"/admin/combat/encounter/{encounter.pk}/change/").status_code == 200
    assert admin_client_.get("/admin/combat/attack/add/").status_code == 403
