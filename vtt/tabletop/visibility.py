"""Who may see what. Decided here, on the server, for every channel: the REST
API filters with these, the live rooms render each event per recipient."""

from dataclasses import dataclass

from .models import Role, Visibility


@dataclass(frozen=True)
class Viewer:
    user_id: int
    role: str

    @property
    def is_gm(self) -> bool:
        return self.role == Role.GM


def sees_in_full(viewer: Viewer, visibility: str, actor_id: int | None) -> bool:
    """May `viewer` see everything of a roll or event with this visibility?"""
    if visibility == Visibility.PUBLIC or viewer.is_gm:
        return True
    if visibility == Visibility.SELF:
        return actor_id == viewer.user_id
    return False  # gm and blind: the GM only


def knows_it_happened(viewer: Viewer, visibility: str, actor_id: int | None) -> bool:
    """A blind roll's roller learns that it was made, not what it gave."""
    return sees_in_full(viewer, visibility, actor_id) or (
        visibility == Visibility.BLIND and actor_id == viewer.user_id
    )


def event_view(event, viewer: Viewer) -> dict:
    """The event as `viewer` receives it. Every viewer gets every sequence
    number (so a gap always means a lost message), but what they may not see
    is reduced to {"seq", "type": "redacted"}, and a blind roll to its bare
    announcement."""
    if event.kind.startswith("token."):
        return token_event_view(event, viewer)
    if sees_in_full(viewer, event.visibility, event.actor_id):
        return {"seq": event.seq, "type": event.kind, "data": shown_data(event.data, viewer)}
    if knows_it_happened(viewer, event.visibility, event.actor_id):
        return {"seq": event.seq, "type": event.kind, "data": blind_announcement(event.data)}
    return {"seq": event.seq, "type": "redacted"}


def shown_data(data, viewer: Viewer):
    """An event that concerns hidden things too (a turn order with a hidden
    monster) carries what players may see of it as `players_view`."""
    if not viewer.is_gm and isinstance(data, dict) and "players_view" in data:
        return data["players_view"]
    return data


def blind_announcement(data: dict) -> dict:
    """What the roller of a blind roll is told: that it was made, nothing more."""
    request = data.get("request") or {}
    return {
        "blind": True,
        "roller": data.get("roller"),
        "system": request.get("system"),
        "action": request.get("action"),
    }


def token_event_view(event, viewer: Viewer) -> dict:
    """Token events about a hidden token: the GM sees them; players see the
    token vanish when it is hidden and nothing of it afterwards. Events of a
    scene the room is not on are the GM's (their visibility says so)."""
    token = event.data.get("token") or {}
    if viewer.is_gm:
        return {"seq": event.seq, "type": event.kind, "data": event.data}
    if not sees_in_full(viewer, event.visibility, event.actor_id):
        return {"seq": event.seq, "type": "redacted"}
    if not token.get("hidden"):
        return {"seq": event.seq, "type": event.kind, "data": event.data}
    if event.kind == "token.hidden":
        return {"seq": event.seq, "type": "token.removed", "data": {"token_id": token.get("id")}}
    return {"seq": event.seq, "type": "redacted"}
