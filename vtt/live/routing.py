"""Websocket routes: one room per campaign."""

from django.urls import path

from .consumer import RoomConsumer

websocket_urlpatterns = [
    path("ws/campaigns/<int:campaign_id>/", RoomConsumer.as_asgi()),
]
