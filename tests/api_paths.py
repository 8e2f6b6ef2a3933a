"""The REST API's paths for one object, each with the reads that hang off
it, so the secrecy tests list what they read object by object."""


def campaign_paths(pk) -> list[str]:
    return [
        f"/api/campaigns/{pk}/",
        *(
            f"/api/campaigns/{pk}/{part}/"
            for part in ("members", "characters", "scenes", "rolls", "sessions", "markers")
        ),
        f"/api/combat/attacks/?campaign={pk}",
    ]


def scene_paths(pk) -> list[str]:
    return [
        f"/api/scenes/{pk}/",
        f"/api/scenes/{pk}/tokens/",
        f"/api/scenes/{pk}/drawings/",
        f"/api/combat/scenes/{pk}/trails/",
    ]


def token_paths(pk, query: str = "") -> list[str]:
    return [f"/api/tokens/{pk}/", f"/api/combat/tokens/{pk}/range-bands/{query}"]
