"""The project's routes plus one page that fails, for the tests of what a failure shows."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from project.urls import urlpatterns as project_urls


def broken(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a page that fails, for the test")


urlpatterns = [path("broken/", broken), *project_urls]
handler400 = "askapp.views.bad_request"
handler500 = "askapp.views.server_error"
