"""Races between a player's request and the GM's change that makes its
object secret: the request, served after the change, finds nothing there."""

import pytest

from vtt.tabletop import services
from vtt.tabletop.models import Token
from vtt.tabletop.services import tokens
from vtt.tabletop.services.errors import NotFound

from .conftest import leaks

# What the GM does while the player's move waits for the token's row.
MEANWHILE = {
    "hides the token": lambda s: services.token_set_hidden(
        token_id=s.tokens.tenrec.pk, by=s.users["gm"], hidden=True
    ),
    "takes the room to another scene": lambda s: services.scene_activate(
        scene_id=s.lair.pk, by=s.users["gm"]
    ),
}


@pytest.mark.parametrize("gm_does", MEANWHILE)
@pytest.mark.parametrize("stale", (True, False))
def test_a_move_racing_the_gm_is_refused_as_not_found(secrets, monkeypatch, gm_does, stale):
    tenrec, player = secrets.tokens.tenrec, secrets.users["player"]
    version = Token.objects.get(pk=tenrec.pk).version
    found = tokens.token_for

    def then_the_gm(token_id, by):
        # The player's move has found the token; the GM's change commits
        # before the move takes the row's lock.
        seen = found(token_id, by)
        monkeypatch.setattr(tokens, "token_for", found)
        MEANWHILE[gm_does](secrets)
        return seen

    monkeypatch.setattr(tokens, "token_for", then_the_gm)
    with pytest.raises(NotFound) as refused:
        services.token_move(
            token_id=tenrec.pk, by=player, x=4, y=4, version=version - 1 if stale else version
        )
    assert (refused.value.code, refused.value.message) == ("not_found", "no such token")
    assert not hasattr(refused.value, "token")
    assert leaks(str(refused.value)) == []
    now = Token.objects.get(pk=tenrec.pk)
    assert (now.x, now.y) == (2, 2)
