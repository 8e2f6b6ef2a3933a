"""A socket's table of the tokens its member may see: who controls each,
whether it is hidden, its version and, on a fog scene, the sight groups it
sees for. Drag previews are checked and routed with it and a command names
a token it holds without a database read. It is filled from a snapshot or a
resync and follows every event the socket is handed, before the client sees
it, so it is never ahead of what the client holds."""

from vtt.tabletop import policy
from vtt.tabletop.visibility import Viewer


def token_meta(token: dict, eyes: dict | None = None) -> dict:
    meta = {
        "id": token["id"],
        "controllers": token.get("controllers") or [],
        "hidden": bool(token.get("hidden")),
        "version": token.get("version"),
        "gone": False,
    }
    if eyes is not None:  # a fog scene: the groups it sees for
        meta["eyes"] = eyes.get(token["id"], [])
    return meta


def table_of(tokens, eyes: dict | None) -> dict[int, dict]:
    """A snapshot's or a resync's tokens, by id."""
    return {t["id"]: token_meta(t, eyes) for t in tokens}


def scene_table(scene: dict, viewer: Viewer) -> dict[int, dict]:
    """A scene change's tokens a member may see, by id: made once per kind
    of member (the GM, each sight group) and kept on the message, which
    every socket of the room in this process is handed; each socket copies
    it. The records are never changed in place, only replaced."""
    tables = scene.setdefault("tables", {})
    key = policy.sight_key(viewer)
    if key not in tables:
        if "metas" not in scene:
            eyes = scene.get("eyes")
            if eyes is not None:
                eyes = {int(token_id): groups for token_id, groups in eyes.items()}
            scene["metas"] = [token_meta(t, eyes) for t in scene.get("tokens") or ()]
        seen = (scene.get("seen") or {}).get(viewer.group)
        tables[key] = {
            t["id"]: t
            for t in scene["metas"]
            if policy.sees_if(
                viewer, players_see=not t["hidden"] and (seen is None or t["id"] in seen)
            )
        }
    return tables[key]


def follow(tokens: dict[int, dict], message: dict, viewer: Viewer) -> dict[int, dict]:
    """The table after the room event `message`, as `viewer` sees it: the
    same dict changed in place, or a new one on a scene change."""
    token = message.get("token")
    if token is not None:
        if "seen_by" in message:
            token = {**token, "seen_by": message["seen_by"], "eyes": message.get("eyes", [])}
        _note(tokens, token, viewer)
    change = (message.get("sight") or {}).get(viewer.group)
    if change is not None and not policy.runs_table(viewer):
        for meta in change["enter"]:
            tokens[meta["id"]] = meta
        for token_id in change["leave"]:
            tokens.pop(token_id, None)
    if message.get("scene") is not None:
        # A scene change: the table becomes the new map's tokens, as the
        # event carries them (later token events apply on top).
        return dict(scene_table(message["scene"], viewer))
    return tokens


def _note(tokens: dict[int, dict], meta: dict, viewer: Viewer) -> None:
    seen_by = meta.get("seen_by")
    players_see = not meta["hidden"] and (seen_by is None or viewer.group in seen_by)
    if meta["gone"] or not policy.sees_if(viewer, players_see=players_see):
        tokens.pop(meta["id"], None)
    elif meta["controllers"] is None:
        # A move (its controllers did not change): those held stay, and
        # a token not held stays unknown (it came into view, if it did,
        # in the event's sight change).
        held = tokens.get(meta["id"])
        if held is not None:
            tokens[meta["id"]] = {**meta, "controllers": held["controllers"]}
    else:
        tokens[meta["id"]] = meta


def visible_to(tokens: dict[int, dict], viewer: Viewer) -> dict[int, dict]:
    """The table without what `viewer` no longer sees (a role lowered)."""
    return {i: t for i, t in tokens.items() if policy.sees_if(viewer, players_see=not t["hidden"])}
