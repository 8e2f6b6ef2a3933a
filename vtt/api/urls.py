from django.urls import path

from . import rules_views

urlpatterns = [
    path("adjudicate/", rules_views.AdjudicateView.as_view(), name="adjudicate"),
    path("odds/", rules_views.OddsView.as_view(), name="odds"),
]
