"""Routes of API v1, mounted at /v1/ by askapp/urls.py."""

from django.urls import path, re_path

from askapp.api import views
from askapp.api.docs import RedocView, SchemaView, SwaggerView
from askapp.api.errors import json_not_found
from askapp.api.views import api_index

urlpatterns = [
    path("", api_index, name="api-index"),
    path("ask", views.AskView.as_view(), name="api-ask"),
    path("ask/stream", views.AskStreamView.as_view(), name="api-ask-stream"),
    path("conversations", views.ConversationListView.as_view(), name="api-conversations"),
    path(
        "conversations/<str:conversation_id>",
        views.ConversationDetailView.as_view(),
        name="api-conversation",
    ),
    path("turns/<str:turn_id>/feedback", views.TurnFeedbackView.as_view(), name="api-feedback"),
    path("schema", SchemaView.as_view(), name="api-schema"),
    path("docs", SwaggerView.as_view(), name="api-docs"),
    path("redoc", RedocView.as_view(), name="api-redoc"),
    re_path(r"^.*$", json_not_found),
]
