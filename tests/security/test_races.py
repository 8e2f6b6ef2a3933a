"""Races between a player's request and the GM's change that makes its
object secret: the request, served after the change, finds nothing there."""

import pytest

from vtt.tabletop import services
from vtt.tabletop.models import Token
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
def test_a_move_racing_the_gm_is_refused_as_not_found(secrets, gm_does, stale):
    # The move reads the token, its scene and the room under the token's
    # lock: a move sent before the GM's change and served after it finds
    # nothing, and the version it names (current or stale) tells nothing.
    tenrec, player = secrets.tokens.tenrec, secrets.users["player"]
    version = Token.objects.get(pk=tenrec.pk).version
    MEANWHILE[gm_does](secrets)
    with pytest.raises(NotFound) as refused:
        services.token_move(
            token_id=tenrec.pk, by=player, x=4, y=4, version=version - 1 if stale else version
        )
    assert (refused.value.code, refused.value.message) == ("not_found", "no such token")
    assert not hasattr(refused.value, "token")
    assert leaks(str(refused.value)) == []
    now = Token.objects.get(pk=tenrec.pk)
    assert (now.x, now.y) == (2, 2)
