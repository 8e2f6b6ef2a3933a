from vtt.tabletop.models import RoomEvent


def last_seq(campaign) -> int:
    return (
        RoomEvent.objects.filter(campaign=campaign)
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
        or 0
    )


def events_after(campaign, seq: int) -> list[RoomEvent]:
    return list(RoomEvent.objects.filter(campaign=campaign, seq__gt=seq).order_by("seq"))


def kinds_after(campaign, seq: int) -> list[str]:
    return [event.kind for event in events_after(campaign, seq)]


def chat_data(text: str) -> dict:
    """A chat line's payload as the chat intent writes it (event_kinds.CHAT)."""
    return {"from": {"id": 1, "name": "gm"}, "text": text, "html": text}
