from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.urls import include, path

from .health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/", include("vtt.api.urls")),
    path("api/combat/", include("vtt.api.combat_urls")),
    path("", include("vtt.web.urls")),
]

# Uploaded battle maps while developing (a no-op unless DEBUG); in production
# the proxy serves /media/ from the shared volume.
urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
