from django.db import connection

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


def tamper(event: RoomEvent, data: dict) -> None:
    """Rewrite a log entry's payload behind the application's back, as
    someone holding the database's password could: the model refuses it."""
    field = RoomEvent._meta.get_field("data")
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {RoomEvent._meta.db_table} SET data = %s WHERE id = %s",
            [field.get_db_prep_save(data, connection), event.pk],
        )


def strike(event: RoomEvent) -> None:
    """Delete a log entry behind the application's back (see tamper)."""
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {RoomEvent._meta.db_table} WHERE id = %s", [event.pk])
