from django.contrib import admin
from django.urls import include, path

from .health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/", include("vtt.api.urls")),
    path("api/combat/", include("vtt.combat.urls")),
    path("", include("vtt.web.urls")),
]
