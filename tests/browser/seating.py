"""The start the browser seeds share: a GM and a player who log in with a
password, and campaigns of the GM's that the player joined by invitation.
Called inside a seed's `seed()`, after django.setup(); the rows are laid by
tests/factories.py."""


def gm_and_player(password: str):
    from tests import factories

    return factories.person("gm", password), factories.person("player", password)


def joined_campaign(gm, player, name: str, game: str = "artifice"):
    from tests import factories

    campaign = factories.campaign(gm, name=name, game=game)
    factories.invited(campaign, gm, player)
    return campaign
