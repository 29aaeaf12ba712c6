"""The chat pages: server-rendered, and complete without JavaScript.

Every form posts here, the view calls the same services the API calls (askapp/services), and
answers with a redirect to a page that shows the result (POST, redirect, GET). With JavaScript
on, static/askapp/chat.js sends the same forms to the API instead (/v1/ask/stream and the
rest), and then fetches `turn_fragment` to show a finished answer exactly as this page renders
it: one template for an answer, whichever way it arrived (docs/adr/0016).
"""

from __future__ import annotations

import functools
import sys
import uuid
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.views import redirect_to_login
from django.contrib.staticfiles import finders
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from askapp.api.throttles import AnonThrottle, UserThrottle
from askapp.errors import AskFailed, NotFound
from askapp.forms import AskForm, FeedbackForm, LoginForm, RenameForm, SearchForm
from askapp.models import Conversation, Turn
from askapp.outages import error_page, outage, outage_response
from askapp.owners import Owner, existing_owner, request_owner, session_visitor
from askapp.permissions import clearance_for
from askapp.presentation import exchange_views
from askapp.requestid import request_id_of
from askapp.selectors.conversations import (
    conversation_get,
    conversation_list,
    conversation_turns,
    owner_verdicts,
    question_answers,
    questions_before,
    turn_get,
    turn_page,
)
from askapp.selectors.coverage import coverage as coverage_table
from askapp.selectors.coverage import examples
from askapp.selectors.knowledge import knowledge_base_counts
from askapp.services.asking import ask, ask_prepare
from askapp.services.conversations import (
    conversation_create,
    conversation_delete,
    conversation_rename,
    conversations_adopt,
    feedback_submit,
)

PLACEHOLDER_ID = "00000000-0000-0000-0000-000000000000"  # the script puts real ids in URLs
FAVICON = "askapp/favicon.svg"
RECENT = 15
PAGE_SIZE = 25
View = Callable[..., HttpResponse]


def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler400: what was wrong is logged (django.security), with the request id shown."""
    body = error_page("400.html", {"request_id": request_id_of(request)})
    return HttpResponse(body, status=400)


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: the error was logged (django.request) with the id this page shows. The
    page renders without the request's context processors, which may be what failed. A
    database that is read-only or out of reach is an outage: 503 (askapp/outages.py)."""
    found = outage(sys.exc_info()[1])
    if found is not None:
        return outage_response(request, found)
    body = error_page("500.html", {"request_id": request_id_of(request)})
    return HttpResponse(body, status=500)


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, for clients that ask there rather than read the page's icon link: the
    same SVG icon, cached for a day."""
    path = finders.find(FAVICON)
    if not path:
        raise Http404("No icon.")
    with open(path, "rb") as icon:
        response = HttpResponse(icon.read(), content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=86400"
    return response


def chat_page(view: View) -> View:
    """Let in a logged-in user, or anyone when anonymous chat is on; send others to log in.
    The view gets the owner (None: an anonymous visitor whose session owns nothing yet)."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not (request.user.is_authenticated or settings.ASKAPP_ANONYMOUS_CHAT):
            return redirect_to_login(request.get_full_path())
        owner = request_owner(request) if request.method == "POST" else existing_owner(request)
        if owner is not None and owner.user_id is None:
            # Saving an empty session does not send its cookie; marking it modified does, so
            # the visitor keeps the conversations this session now owns.
            request.session.modified = True
        try:
            response = view(request, owner, *args, **kwargs)
        except NotFound as exc:
            raise Http404(exc.message) from exc
        return response

    return wrapper


def _recent(owner: Owner | None) -> list[Conversation]:
    if owner is None:
        return []
    return list(conversation_list(owner=owner)[:RECENT])


def _page(
    request: HttpRequest, owner: Owner | None, template: str, status: int = 200, **context: Any
) -> HttpResponse:
    context.setdefault("recent", _recent(owner))
    context.setdefault("anonymous_chat", settings.ASKAPP_ANONYMOUS_CHAT)
    context.setdefault("placeholder", PLACEHOLDER_ID)
    return render(request, template, context, status=status)


# --- pages ----------------------------------------------------------------------------------


@require_safe
@chat_page
def home(request: HttpRequest, owner: Owner | None) -> HttpResponse:
    """A new conversation: the ask form with an optional company scope, and example
    questions chosen from what the knowledge base holds for this visitor."""
    return _landing(request, owner, AskForm(clearance=clearance_for(request.user)))


def _landing(
    request: HttpRequest, owner: Owner | None, form: AskForm, status: int = 200
) -> HttpResponse:
    return _page(
        request,
        owner,
        "chat/conversation.html",
        status=status,
        form=form,
        counts=knowledge_base_counts(clearance=clearance_for(request.user)),
        examples=examples(clearance=clearance_for(request.user)),
    )


@require_safe
@chat_page
def coverage(request: HttpRequest, owner: Owner | None) -> HttpResponse:
    """What the knowledge base holds for this visitor: companies by period, or with
    `?company=` that company's figures by period, each held one a question to ask."""
    company = request.GET.get("company", "").strip()[:200]
    table = coverage_table(clearance=clearance_for(request.user), company=company)
    if table is None:
        raise Http404(f"The knowledge base holds nothing you may see about {company}.")
    return _page(request, owner, "chat/coverage.html", coverage=table, recent=[])


@require_safe
@chat_page
def conversations(request: HttpRequest, owner: Owner | None) -> HttpResponse:
    """All the visitor's conversations, most recently active first, searchable."""
    search = SearchForm(request.GET)
    words = search.cleaned_data["q"] if search.is_valid() else ""
    rows = conversation_list(owner=owner, search=words, clearance=clearance_for(request.user))
    page = Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))
    return _page(request, owner, "chat/list.html", search=search, words=words, page=page, recent=[])


@require_safe
@chat_page
def conversation(
    request: HttpRequest, owner: Owner | None, conversation_id: uuid.UUID
) -> HttpResponse:
    return _conversation_page(request, _owned(owner), conversation_id)


def _editing(
    request: HttpRequest,
    turns: list[Turn],
    conversation_id: uuid.UUID,
    *,
    clearance: frozenset[str],
) -> AskForm:
    """The ask form; with `?edit=<question id>`, holding that earlier question to edit and
    ask anew (the page's "Edit and ask" link, without JavaScript)."""
    initial: dict[str, Any] = {"conversation": conversation_id}
    edit = request.GET.get("edit", "")
    for turn in turns:
        if str(turn.pk) == edit and turn.role == Turn.Role.USER:
            initial["question"] = turn.text
    return AskForm(initial=initial, clearance=clearance)


def _conversation_page(
    request: HttpRequest,
    owner: Owner,
    conversation_id: uuid.UUID,
    *,
    form: AskForm | None = None,
    status: int = 200,
) -> HttpResponse:
    chat = conversation_get(owner=owner, conversation_id=conversation_id)
    clearance = clearance_for(request.user)
    page = turn_page(conversation=chat, asked=request.GET.get("page"))
    turns = conversation_turns(conversation=chat, clearance=clearance, positions=page.positions)
    earlier = questions_before(question=turns[0]) if page.previous and turns else []
    return _page(
        request,
        owner,
        "chat/conversation.html",
        status=status,
        conversation=chat,
        turn_page=page,
        exchanges=exchange_views(
            turns, earlier=earlier, verdicts=owner_verdicts(owner=owner, turns=turns)
        ),
        form=form or _editing(request, turns, chat.pk, clearance=clearance),
        rename=RenameForm(initial={"title": chat.title}),
    )


@require_safe
@chat_page
def turn_fragment(request: HttpRequest, owner: Owner | None, turn_id: uuid.UUID) -> HttpResponse:
    """One exchange (a question and its answer) as the conversation page renders it. The
    script fetches it when a streamed answer is done, so both paths show the same HTML."""
    turn = turn_get(owner=_owned(owner), turn_id=turn_id)
    question = turn if turn.role == Turn.Role.USER else turn.answers
    if question is None:
        raise Http404("This turn answers no question.")
    answers = question_answers(question=question, clearance=clearance_for(request.user))
    (exchange,) = exchange_views(
        [question, *answers],
        earlier=questions_before(question=question),
        verdicts=owner_verdicts(owner=owner, turns=answers),
    )
    return render(request, "chat/_exchange.html", {"exchange": exchange})


class LoginView(auth_views.LoginView):
    template_name = "registration/login.html"
    redirect_authenticated_user = True
    form_class = LoginForm

    def form_invalid(self, form: Any) -> HttpResponse:
        response = super().form_invalid(form)
        if form.throttled:
            response.status_code = 429
        return response

    def form_valid(self, form: Any) -> HttpResponse:
        # What the visitor asked anonymously becomes the user's (the visitor id is read
        # before logging in, which may start the session afresh).
        visitor = session_visitor(self.request)
        response = super().form_valid(form)
        conversations_adopt(visitor=visitor, user_id=form.get_user().pk)
        return response

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["anonymous_chat"] = settings.ASKAPP_ANONYMOUS_CHAT
        return context


class LogoutView(auth_views.LogoutView):
    """Log out by POST (the header's button), then back to a new conversation."""


# --- forms (the no-JavaScript paths) --------------------------------------------------------


@require_POST
@chat_page
def ask_question(request: HttpRequest, owner: Owner | None) -> HttpResponse:
    """Ask, store, and show the conversation (POST, redirect, GET)."""
    owner = _owned(owner)
    clearance = clearance_for(request.user)
    form = AskForm(request.POST, clearance=clearance)
    if not form.is_valid():
        return _ask_form_again(request, owner, form, status=400)
    wait = _throttled(request)
    if wait is not None:
        form.add_error(None, f"Too many questions at once: try again in {wait} seconds.")
        return _ask_form_again(request, owner, form, status=429)
    conversation_id = form.cleaned_data["conversation"]
    scope = form.cleaned_data["scope"]
    if conversation_id is None and scope is not None:
        conversation_id = conversation_create(owner=owner, scope=scope).pk
    prepared = ask_prepare(
        owner=owner,
        question=form.cleaned_data["question"],
        clearance=clearance,
        conversation_id=conversation_id,
    )
    try:
        stored = ask(prepared=prepared)
    except AskFailed as failed:
        messages.error(request, f"The question could not be answered: {failed.message}")
        return redirect(_at(failed.conversation.pk, f"exchange-{failed.turn.pk}"))
    return redirect(_at(stored.conversation.pk, f"answer-{stored.answer.pk}"))


def _ask_form_again(
    request: HttpRequest, owner: Owner, form: AskForm, *, status: int
) -> HttpResponse:
    """The page the question was asked on, with the form's errors."""
    conversation_id = form.cleaned_data.get("conversation")
    if conversation_id:
        return _conversation_page(request, owner, conversation_id, form=form, status=status)
    return _landing(request, owner, form, status=status)


def _throttled(request: HttpRequest) -> int | None:
    """Seconds to wait when the asker is over the API's rate: the form path counts against
    the same per-user and per-client limits as /v1/ask, so it is no way around them."""
    for throttle in (UserThrottle(), AnonThrottle()):
        if not throttle.allow_request(request, None):  # type: ignore[arg-type]
            return max(1, round(throttle.wait() or 1))
    return None


@require_POST
@chat_page
def rename(request: HttpRequest, owner: Owner | None, conversation_id: uuid.UUID) -> HttpResponse:
    chat = conversation_get(owner=_owned(owner), conversation_id=conversation_id)
    form = RenameForm(request.POST)
    if form.is_valid():
        conversation_rename(conversation=chat, title=form.cleaned_data["title"])
        messages.success(request, "Conversation renamed.")
    else:
        messages.error(request, "; ".join(form.errors.get("title", [])))
    return redirect(reverse("conversation", args=[chat.pk]))


@require_POST
@chat_page
def delete(request: HttpRequest, owner: Owner | None, conversation_id: uuid.UUID) -> HttpResponse:
    chat = conversation_get(owner=_owned(owner), conversation_id=conversation_id)
    conversation_delete(conversation=chat)
    messages.success(request, "Conversation deleted.")
    return redirect(reverse("home"))


@require_POST
@chat_page
def feedback(request: HttpRequest, owner: Owner | None, turn_id: uuid.UUID) -> HttpResponse:
    owner = _owned(owner)
    turn = turn_get(owner=owner, turn_id=turn_id)
    form = FeedbackForm(request.POST)
    if form.is_valid():
        feedback_submit(
            turn=turn,
            owner=owner,
            value=form.cleaned_data["value"],
            comment=form.cleaned_data["comment"],
        )
        messages.success(request, "Thank you: your feedback was recorded.")
    else:
        messages.error(request, "Choose helpful or not helpful.")
    return redirect(_at(turn.conversation_id, f"answer-{turn.pk}"))


# --- helpers --------------------------------------------------------------------------------


def _owned(owner: Owner | None) -> Owner:
    """An anonymous visitor without a session owns nothing: every id is someone else's."""
    if owner is None:
        raise Http404("Nothing here belongs to this session.")
    return owner


def _at(conversation_id: uuid.UUID, anchor: str) -> str:
    return f"{reverse('conversation', args=[conversation_id])}#{anchor}"
