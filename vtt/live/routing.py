"""Websocket routes: one room per campaign, for its members and its spectators."""

from django.urls import path

from .consumer import RoomConsumer
from .spectating import SpectatorConsumer

websocket_urlpatterns = [
    path("ws/campaigns/<int:campaign_id>/", RoomConsumer.as_asgi()),
    # A spectator's link (vtt.live.spectating): its token is the key.
    path("ws/watch/<str:token>/", SpectatorConsumer.as_asgi()),
]
