"""The URLconf: each rung at its definition's path; the site's pages when a site is configured."""

from django.conf import settings
from django.urls import URLPattern, path

from layerbench.rungs.definitions import ORM, PAGE, STRING, TEMPLATE, UPSTREAM
from layerbench_sites.frameworks.django_site import views
from layerbench_sites.frameworks.django_site.settings import SITE


def rung_path(rung_path: str) -> str:
    return rung_path.removeprefix("/")


urlpatterns: list[URLPattern] = [
    path(rung_path(STRING.path), views.string),
    path(rung_path(ORM.path), views.orm),
    path(rung_path(TEMPLATE.path), views.template),
]
if views.UPSTREAM is not None:
    urlpatterns.append(path(rung_path(UPSTREAM.path), views.upstream))
if settings.DATABASES[SITE]:
    urlpatterns += [
        path(rung_path(PAGE.path), views.page),
        path("v/<str:ref>", views.cached_page),
        path("videos/<str:ref>/comments", views.post_comment),
    ]
