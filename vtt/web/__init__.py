"""The browser table: page views (lobby, room, character sheets, GM console)
and their forms. Pages read through the models and selectors and change
things only through vtt.tabletop.services."""
