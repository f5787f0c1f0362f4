from csp.constants import SELF, UNSAFE_INLINE
from csp.decorators import csp_replace
from django.contrib import admin
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path, re_path
from django.views.generic import TemplateView
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)
from rest_framework.permissions import AllowAny

from casino.core.accounts import (
    LogoutAllView,
    LogoutView,
    MeView,
    SessionLoginView,
    TokenLoginView,
)
from casino.core.health import health
from casino.core.middleware import api_not_found

# The documentation pages only: their (served, not fetched) viewers style and draw themselves
# inline, and ReDoc searches in a worker it builds from a blob. Scripts still come from this
# server only.
DOCS_CSP = csp_replace(
    {
        "style-src": [SELF, UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "worker-src": [SELF, "blob:"],
    }
)

api_v1 = [
    path("auth/token/", TokenLoginView.as_view(), name="auth-token"),
    path("auth/logout/", LogoutView.as_view(), name="auth-logout"),
    path("auth/logout-all/", LogoutAllView.as_view(), name="auth-logout-all"),
    path("auth/me/", MeView.as_view(), name="auth-me"),
    path("", include("tables.urls")),
    path("", include("payouts.urls")),
    path("", include("approvals.urls")),
    path("", include("filings.urls")),
    path("", include("custody.urls")),
]

# The admin's own password form would get around the login limits: an anonymous visitor
# is sent to the throttled login page instead, which comes back to the admin.
admin.site.login = login_required(admin.site.login)  # type: ignore[method-assign]

urlpatterns = [
    path("", login_required(TemplateView.as_view(template_name="home.html")), name="home"),
    path("accounts/login/", SessionLoginView.as_view(), name="login"),  # throttled
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    path("tablet/", include("tablet.urls")),
    path("desk/compliance/filings/", include("filings.desk_urls")),  # before desk/
    path("desk/", include("desk.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/schema/", SpectacularAPIView.as_view(permission_classes=[AllowAny]), name="schema"),
    # Swagger UI and ReDoc, served by the app (no CDN); the split view keeps its set-up script
    # out of the page, which the Content-Security-Policy would refuse inline.
    path(
        "api/docs/",
        DOCS_CSP(
            SpectacularSwaggerSplitView.as_view(url_name="schema", permission_classes=[AllowAny])
        ),
        name="docs",
    ),
    path(
        "api/redoc/",
        DOCS_CSP(
            SpectacularRedocView.as_view(
                url_name="schema",
                permission_classes=[AllowAny],
                template_name="api/redoc.html",  # the stock page loads web fonts from outside
            )
        ),
        name="redoc",
    ),
    path("health/", health, name="health"),
    # Browsers ask for /favicon.ico on every page that names no icon (the API docs' pages).
    path("favicon.ico", lambda request: redirect(static("core/favicon.svg")), name="favicon"),
    # Last: any other path under /api/ is a JSON 404 (also with DEBUG on).
    re_path(r"^api/", api_not_found, name="api-not-found"),
]
