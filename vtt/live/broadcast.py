"""From the log to the rooms: every committed room event is rendered once per
visibility class (vtt.live.render) and published to its room's group.

The event_committed signal fires in whichever thread committed: a worker
thread of a live connection, an HTTP request, a management command."""

import logging

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from .hub import room_group, running_hub
from .render import render_event

logger = logging.getLogger(__name__)


def on_event_committed(sender, event, **kwargs) -> None:
    try:
        publish(render_event(event))
    except Exception:
        # The change is committed and in the log; rooms catch up from there.
        logger.exception("could not broadcast event %s of room %s", event.seq, event.campaign_id)


def publish(message: dict) -> None:
    """Publish from synchronous code, keeping commit order within a process."""
    hub = running_hub()
    if hub is not None:
        try:
            hub.call_from_thread(hub.publish_event, message)
            return
        except RuntimeError:  # the loop closed meanwhile
            pass
    layer = get_channel_layer()
    if layer is None or isinstance(layer, InMemoryChannelLayer):
        # An in-memory layer reaches this process only, and no room is open here.
        return
    async_to_sync(layer.group_send)(room_group(message["room"]), message)
