from django.urls import include, path

from askapp import views

urlpatterns = [
    # First: load balancers ask it several times a second; the resolver tries routes in order.
    path("healthz", views.healthz, name="healthz"),
    path("", views.home, name="home"),
    path("conversations/", views.conversations, name="conversations"),
    path("coverage/", views.coverage, name="coverage"),
    path("c/<uuid:conversation_id>/", views.conversation, name="conversation"),
    path("c/<uuid:conversation_id>/rename", views.rename, name="rename"),
    path("c/<uuid:conversation_id>/delete", views.delete, name="delete"),
    path("ask", views.ask_question, name="ask"),
    path("turns/<uuid:turn_id>/", views.turn_fragment, name="turn_fragment"),
    path("turns/<uuid:turn_id>/feedback", views.feedback, name="feedback"),
    path("accounts/login/", views.LoginView.as_view(), name="login"),
    path("accounts/logout/", views.LogoutView.as_view(), name="logout"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("v1/", include("askapp.api.urls")),
]
