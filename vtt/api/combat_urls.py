"""Combat's REST endpoints, under /api/combat/ (docs/combat.md)."""

from django.urls import path

from .views import combat as views

urlpatterns = [
    path("attacks/", views.AttackListView.as_view(), name="combat-attacks"),
    path("attacks/area/", views.AreaAttackView.as_view(), name="combat-area-attack"),
    path("attacks/preview/", views.AttackPreviewView.as_view(), name="combat-attack-preview"),
    path("attacks/<int:attack_id>/", views.AttackDetailView.as_view(), name="combat-attack"),
    path(
        "attacks/<int:attack_id>/damage/",
        views.AttackDamageView.as_view(),
        name="combat-attack-damage",
    ),
    path(
        "attacks/<int:attack_id>/reduce/",
        views.AttackReduceView.as_view(),
        name="combat-attack-reduce",
    ),
    path(
        "attacks/<int:attack_id>/decline/",
        views.AttackDeclineView.as_view(),
        name="combat-attack-decline",
    ),
    path(
        "campaigns/<int:campaign_id>/decisions/",
        views.DecisionsView.as_view(),
        name="combat-decisions",
    ),
    path(
        "characters/<int:character_id>/repair/",
        views.RepairView.as_view(),
        name="combat-repair",
    ),
    path(
        "characters/<int:character_id>/save-from-dying/",
        views.SaveFromDyingView.as_view(),
        name="combat-save-from-dying",
    ),
    path("reactions/", views.ReactionView.as_view(), name="combat-reactions"),
    path("campaigns/<int:campaign_id>/undo/", views.UndoView.as_view(), name="combat-undo"),
    path("campaigns/<int:campaign_id>/reveal/", views.RevealView.as_view(), name="combat-reveal"),
    path("scenes/<int:scene_id>/trails/", views.TrailsView.as_view(), name="combat-trails"),
    path(
        "scenes/<int:scene_id>/encounter/", views.EncounterView.as_view(), name="combat-encounter"
    ),
    path("tokens/<int:token_id>/reset/", views.ResetView.as_view(), name="combat-reset"),
    path(
        "tokens/<int:token_id>/range-bands/",
        views.RangeBandsView.as_view(),
        name="combat-range-bands",
    ),
    path(
        "encounters/<int:encounter_id>/initiative/",
        views.InitiativeView.as_view(),
        name="combat-initiative",
    ),
    path(
        "encounters/<int:encounter_id>/combatants/",
        views.CombatantListView.as_view(),
        name="combat-combatants",
    ),
    path(
        "encounters/<int:encounter_id>/combatants/<int:combatant_id>/",
        views.CombatantDetailView.as_view(),
        name="combat-combatant",
    ),
    path("encounters/<int:encounter_id>/next/", views.NextTurnView.as_view(), name="combat-next"),
    path("encounters/<int:encounter_id>/end/", views.EndView.as_view(), name="combat-end"),
]
