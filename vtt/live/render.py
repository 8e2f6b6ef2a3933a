"""Each log entry is encoded once per *visibility class*, not once per
recipient: what a member may see of an event depends only on their role and
on whether they are its actor (vtt.tabletop.visibility). The broadcast
carries the few distinct frame texts and which class gets which; every
connection then forwards a ready text."""

from vtt.tabletop.models import Role, Visibility
from vtt.tabletop.visibility import Viewer, event_view

from .protocol import event_frame_text

ROLES = tuple(Role.values)
NOBODY = 0  # a user id no real user has: the "not the actor" viewer


def class_key(role: str, is_actor: bool) -> str:
    return f"{role}.actor" if is_actor else role


def viewer_class(role: str, user_id: int, actor_id: int | None) -> str:
    return class_key(role, actor_id is not None and actor_id == user_id)


def render_event(event) -> dict:
    """The channel-layer message announcing `event` (a RoomEvent) to its room."""
    texts: list[str] = []
    index: dict[str, int] = {}
    pick: dict[str, int] = {}
    for role in ROLES:
        viewers = [(class_key(role, False), Viewer(NOBODY, role))]
        if event.actor_id is not None:
            viewers.append((class_key(role, True), Viewer(event.actor_id, role)))
        for key, viewer in viewers:
            text = event_frame_text(event_view(event, viewer))
            if text not in index:
                index[text] = len(texts)
                texts.append(text)
            pick[key] = index[text]
    message = {
        "type": "room.event",
        "room": event.campaign_id,
        "seq": event.seq,
        "kind": event.kind,
        "actor": event.actor_id,
        "texts": texts,
        "pick": pick,
    }
    token = (event.data or {}).get("token") if event.kind.startswith("token.") else None
    if isinstance(token, dict):
        # Kept on the server side of the socket: lets a connection check drags.
        message["token"] = {
            "id": token.get("id"),
            "controllers": token.get("controllers") or [],
            # A token of a scene the room is not on is, for players, as hidden.
            "hidden": bool(token.get("hidden")) or event.visibility != Visibility.PUBLIC,
            "version": token.get("version"),
            "gone": event.kind == "token.deleted",
        }
    if event.kind == "scene.activated":
        # The new map's tokens (all of them: each connection keeps in its own
        # table those its member may see, to check drag previews against).
        data = event.data or {}
        message["scene"] = {
            "id": (data.get("scene") or {}).get("id"),
            "tokens": [
                {key: token.get(key) for key in ("id", "controllers", "hidden", "version")}
                for token in data.get("tokens") or ()
            ],
        }
    if event.kind in ("member.updated", "member.removed"):
        user = (event.data or {}).get("user") or {}
        role = (event.data or {}).get("role") if event.kind == "member.updated" else None
        message["member"] = {"user_id": user.get("id"), "role": role}
    return message


def text_for(message: dict, role: str, user_id: int) -> str:
    """The frame text of a rendered event for one recipient."""
    key = viewer_class(role, user_id, message.get("actor"))
    return message["texts"][message["pick"][key]]
