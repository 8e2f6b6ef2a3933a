"""The start the browser seeds share: a GM and a player who log in with a
password, and campaigns of the GM's that the player joined by invitation.
Called inside a seed's `seed()`, after django.setup()."""


def gm_and_player(password: str):
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    return (
        users.create_user("gm", password=password),
        users.create_user("player", password=password),
    )


def joined_campaign(gm, player, name: str, game: str = "artifice"):
    from vtt.tabletop import services

    campaign = services.campaign_create(owner=gm, name=name, game=game)
    invite = services.invite_create(campaign=campaign, by=gm, role="player")
    services.invite_accept(code=invite.code, user=player)
    return campaign
