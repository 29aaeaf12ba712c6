from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from askapp.selectors.knowledge import knowledge_base_counts


def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


def home(request: HttpRequest) -> HttpResponse:
    """What the product is and what the knowledge base holds (the chat page replaces it)."""
    return render(request, "home.html", {"counts": knowledge_base_counts()})
