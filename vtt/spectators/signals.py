"""Told once a link stops admitting anyone: the live rooms close the
sockets watching through it (vtt.live.spectating)."""

from django.dispatch import Signal

# Sent after the commit, with campaign_id and link_id.
link_closed = Signal()
