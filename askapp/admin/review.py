"""Review of answers in the admin: conversations, the answer list and the answer page.

The answer list is a proxy (AnswerTurn) over the answers askapp gave. Its changelist costs the
same number of queries however many rows it shows: the question, the review and the feedback
counts come with the rows (a join and two subqueries), and the number of sources is read from
the row's own frozen JSON. The answer page is the frozen turn, read-only, with panels for its
provenance, how the question was understood, the history window, the figures and feedback; a
reviewer sets the verdict there or on many answers at once from the list.

Replay asks the question again with today's engine and shows what changed; it never stores a
turn. Export writes reviewed answers as JSONL cases for `manage.py evaluate_cases`.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Exists, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html

from askapp.admin import columns
from askapp.admin.held import held_panel
from askapp.admin.knowledge import CITES_PARAMETER, may_see_restricted
from askapp.admin.panels import answer_panels
from askapp.models import (
    AnswerTurn,
    Citation,
    Classification,
    Conversation,
    Document,
    Feedback,
    Review,
    Turn,
)
from askapp.selectors.reviews import answer_window, review_cases
from askapp.services.replay import answer_replay
from askapp.services.reviews import review_clear, review_set

REVIEW_PERMISSIONS = ("askapp.add_review", "askapp.change_review")
# Review pages use the whole width: the admin's app list beside them would take 300 pixels
# from the answer list (the breadcrumbs still lead back).
WIDE = {"is_nav_sidebar_enabled": False}
REPLAY_LIMIT = 10


# --- conversations --------------------------------------------------------------------------


class TranscriptInline(admin.TabularInline):
    """The conversation as it happened, in order; read-only."""

    model = Turn
    fk_name = "conversation"
    fields = ("position", "role", "origin", "text", "status", "refused", "review_link")
    readonly_fields = fields
    ordering = ("position",)
    extra = 0
    can_delete = False
    verbose_name = "turn"
    verbose_name_plural = "transcript"

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Whoever may read the conversation may read its turns.
        return request.user.has_perm("askapp.view_conversation")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="review")
    def review_link(self, turn: Turn) -> str:
        if turn.role != Turn.Role.ASSISTANT or turn.origin != Turn.Origin.ASKED:
            return ""
        url = reverse("admin:askapp_answerturn_change", args=[turn.pk])
        return format_html('<a href="{}">answer page</a>', url)


@admin.register(Conversation)
class ConversationAdmin(admin.ModelAdmin):
    list_display = ("__str__", "owner_shown", "scope", "turns", "updated", "created")
    list_select_related = ("owner", "scope")
    list_filter = ("updated", ("scope", admin.RelatedOnlyFieldListFilter))
    search_fields = ("title", "turns__text")
    readonly_fields = (
        "id", "owner", "session_key", "title", "scope", "last_position", "created", "updated",
    )  # fmt: skip
    inlines = (TranscriptInline,)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="owner", ordering="owner__username")
    def owner_shown(self, conversation: Conversation) -> str:
        return str(conversation.owner) if conversation.owner_id else "anonymous session"

    @admin.display(description="turns", ordering="last_position")
    def turns(self, conversation: Conversation) -> int:
        # Positions are gap-free from 1 and turns are never deleted alone: the last position
        # is the number of turns, with no count query.
        return conversation.last_position


# --- the answer list's filters --------------------------------------------------------------


class _YesNo(admin.SimpleListFilter):
    yes_label = "Yes"
    no_label = "No"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", self.yes_label), ("no", self.no_label)]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "yes":
            return queryset.filter(self.condition())
        if self.value() == "no":
            return queryset.exclude(self.condition())
        return queryset

    def condition(self) -> Q:
        raise NotImplementedError


class RefusedFilter(_YesNo):
    title = "refused as not found"
    parameter_name = "refused"
    yes_label = "Refused as not found"
    no_label = "Not refused"

    def condition(self) -> Q:
        return Q(refused=True)


class BlockedFilter(_YesNo):
    title = "blocked by the security gate"
    parameter_name = "blocked"

    def condition(self) -> Q:
        return Q(status=Turn.Status.BLOCKED)


class FeedbackFilter(admin.SimpleListFilter):
    title = "reader feedback"
    parameter_name = "feedback"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("up", "Thumbs up"), ("down", "Thumbs down"), ("none", "No feedback")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value()
        if value in Feedback.Value.values:
            return queryset.filter(
                Exists(Feedback.objects.filter(turn=OuterRef("pk"), value=value))
            )
        if value == "none":
            return queryset.exclude(Exists(Feedback.objects.filter(turn=OuterRef("pk"))))
        return queryset


class VerdictFilter(admin.SimpleListFilter):
    title = "reviewer verdict"
    parameter_name = "verdict"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [*Review.Verdict.choices, ("none", "Not reviewed")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value()
        if value in Review.Verdict.values:
            return queryset.filter(review__verdict=value)
        if value == "none":
            return queryset.filter(review__isnull=True)
        return queryset


class CitesFilter(admin.SimpleListFilter):
    """The answers citing one fact or document (the knowledge base's "cited by" links).
    Listed in the sidebar only while it is applied."""

    title = "cites"
    parameter_name = CITES_PARAMETER

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        value = self.value()
        return [(value, value)] if value else []

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value()
        if not value:
            return queryset
        kind, _, pk = value.partition(":")
        if kind not in ("fact", "document") or not pk.isdigit():
            return queryset.none()
        if kind == "document" and not may_see_restricted(self.request):
            restricted = Classification.RESTRICTED
            if Document.objects.filter(pk=pk, classification=restricted).exists():
                return queryset.none()  # its citing answers quote it: see ADR 0004
        citing = Citation.objects.filter(turn=OuterRef("pk"), **{f"{kind}_id": int(pk)})
        return queryset.filter(Exists(citing))

    def __init__(self, request: HttpRequest, *args: Any, **kwargs: Any) -> None:
        self.request = request
        super().__init__(request, *args, **kwargs)


# --- verdicts ------------------------------------------------------------------------------


class _RightFigureOnlyWhenWrong:
    """A right figure says what a wrong answer should have given: no other verdict has one."""

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}  # type: ignore[misc]
        if data.get("expected_value") is not None and data.get("verdict") != "wrong":
            self.add_error(  # type: ignore[attr-defined]
                "expected_value", "A right figure only goes with the verdict wrong."
            )
        return data


class VerdictForm(_RightFigureOnlyWhenWrong, forms.Form):
    verdict = forms.ChoiceField(choices=Review.Verdict.choices)
    note = forms.CharField(widget=forms.Textarea(attrs={"rows": 3, "cols": 60}), required=False)
    expected_value = forms.DecimalField(
        label="Right figure",
        required=False,
        max_digits=28,
        decimal_places=6,
        help_text="Only with the verdict wrong: the figure the answer should have given.",
    )


class ReviewInlineForm(_RightFigureOnlyWhenWrong, forms.ModelForm):
    class Meta:
        model = Review
        fields = ("verdict", "note", "expected_value")
        widgets = {"note": forms.Textarea(attrs={"rows": 2, "cols": 60})}


class ReviewInline(admin.StackedInline):
    model = Review
    form = ReviewInlineForm
    fk_name = "turn"
    fields = ("verdict", "note", "expected_value", "reviewer", "reviewed_at")
    readonly_fields = ("reviewer", "reviewed_at")
    verbose_name = "reviewer verdict"
    verbose_name_plural = "reviewer verdict"


# --- answers -------------------------------------------------------------------------------


def _feedback_count(value: str) -> Coalesce:
    counts = (
        Feedback.objects.filter(turn=OuterRef("pk"), value=value)
        .order_by()
        .values("turn")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(counts, output_field=IntegerField()), 0)


@admin.register(AnswerTurn)
class AnswerTurnAdmin(admin.ModelAdmin):
    # Compact cells (askapp/admin/columns.py): fifty answers fit a 1280-pixel screen.
    list_display = (
        "exchange", "status_shown", "source_count", "feedback", "verdict", "latency",
        "created_shown",
    )  # fmt: skip
    list_display_links = ("exchange",)
    list_select_related = ("answers", "review")
    list_filter = (
        "status", RefusedFilter, BlockedFilter, FeedbackFilter, VerdictFilter, "provider",
        "created", CitesFilter,
    )  # fmt: skip
    search_fields = ("text", "answers__text")
    list_per_page = 50
    actions = ("set_verdict", "export_cases", "replay")
    change_form_template = "admin/askapp/answerturn/change_form.html"
    inlines = (ReviewInline,)
    _answered = (
        "text", "status", "refused", "reason", "choices_shown", "provider", "model", "latency_ms",
        "created",
    )  # fmt: skip
    fieldsets = (
        ("Asked", {"fields": ("conversation_link", "question_position", "question_text")}),
        ("Answered", {"fields": _answered}),
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[AnswerTurn]:
        return (
            super()
            .get_queryset(request)
            .select_related("answers", "review")
            .annotate(feedback_up=_feedback_count("up"), feedback_down=_feedback_count("down"))
        )

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return [name for _, options in self.fieldsets for name in options["fields"]]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # an answer is a record of what a user was told

    def has_review_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perms(REVIEW_PERMISSIONS)

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        """The turn is frozen: saving the page saves the verdict only (save_formset)."""

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        formset.save(commit=False)  # what changed, for the history message; nothing written
        for inline in formset.forms:
            data = getattr(inline, "cleaned_data", None)
            if not data or not inline.has_changed():
                continue
            if data.get("DELETE"):
                review_clear(turns=[form.instance])
            else:
                review_set(
                    turns=[form.instance],
                    verdict=data["verdict"],
                    note=data.get("note") or "",
                    expected_value=data.get("expected_value"),
                    reviewer=request.user,
                )

    # columns

    @admin.display(description="question and answer", ordering="answers__text")
    def exchange(self, turn: Turn) -> str:
        return columns.exchange_cell(turn.answers.text if turn.answers_id else "", turn.text)

    @admin.display(description="status", ordering="status")
    def status_shown(self, turn: Turn) -> str:
        return columns.status_chip(turn)

    @admin.display(description="src")
    def source_count(self, turn: Turn) -> int:
        return len(turn.sources or ())

    @admin.display(description="feedback")
    def feedback(self, turn: Any) -> str:
        return columns.feedback_cell(turn.feedback_up, turn.feedback_down)

    @admin.display(description="verdict", ordering="review__verdict")
    def verdict(self, turn: Turn) -> str:
        return columns.verdict_chip(getattr(turn, "review", None))

    @admin.display(description="time", ordering="latency_ms")
    def latency(self, turn: Turn) -> str:
        return columns.latency_cell(turn)

    @admin.display(description="asked", ordering="created")
    def created_shown(self, turn: Turn) -> str:
        return columns.when_cell(turn.created)

    # fields of the answer page

    @admin.display(description="conversation")
    def conversation_link(self, turn: Turn) -> str:
        url = reverse("admin:askapp_conversation_change", args=[turn.conversation_id])
        return format_html('<a href="{}">{}</a>', url, turn.conversation)

    @admin.display(description="position")
    def question_position(self, turn: Turn) -> str:
        if not turn.answers_id:
            return ""
        return f"question at {turn.answers.position}, answer at {turn.position}"

    @admin.display(description="question")
    def question_text(self, turn: Turn) -> str:
        return turn.answers.text if turn.answers_id else ""

    @admin.display(description="choices")
    def choices_shown(self, turn: Turn) -> str:
        return columns.choices_list(turn.choices)

    # the answer page

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        turn = self.get_object(request, object_id)
        context = {**(extra_context or {}), **WIDE}
        if turn is not None and self.has_view_or_change_permission(request, turn):
            window = answer_window(turn=turn)
            seer = may_see_restricted(request)
            context["panels"] = answer_panels(turn, window, may_see_restricted=seer)
            context["held"] = held_panel(turn, may_see_restricted=seer)
            context["replay_url"] = reverse("admin:askapp_answerturn_replay", args=[turn.pk])
            context["title"] = "Review answer"
        return super().change_view(request, object_id, form_url, context)

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> Any:
        return super().changelist_view(request, {**(extra_context or {}), **WIDE})

    def get_urls(self) -> list[Any]:
        replay = self.admin_site.admin_view(self.replay_view)
        return [
            path("<path:object_id>/replay/", replay, name="askapp_answerturn_replay"),
            *super().get_urls(),
        ]

    def replay_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        turn = self.get_object(request, object_id)
        if turn is None:
            return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)
        if not self.has_view_or_change_permission(request, turn):
            raise PermissionDenied
        return self._replay_page(request, [turn])

    # actions

    @admin.action(description="Set a verdict on the selected answers", permissions=["review"])
    def set_verdict(self, request: HttpRequest, queryset: QuerySet[Any]) -> HttpResponse | None:
        form = VerdictForm(request.POST if "apply" in request.POST else None)
        if form.is_bound and form.is_valid():
            count = review_set(turns=queryset, reviewer=request.user, **form.cleaned_data)
            self.message_user(request, f"Verdict set on {count} answers.", messages.SUCCESS)
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": "Set a verdict",
            "opts": self.opts,
            "form": form,
            "answers": queryset.select_related("answers"),
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/askapp/answerturn/set_verdict.html", context)

    @admin.action(description="Export reviewed answers as evaluation cases (JSONL)")
    def export_cases(self, request: HttpRequest, queryset: QuerySet[Any]) -> HttpResponse | None:
        export = review_cases(turns=queryset)
        if not export.cases:
            self.message_user(request, "None of the selected answers can be exported: "
                              "only reviewed answers become cases.", messages.WARNING)  # fmt: skip
            return None
        for turn, why in export.skipped:
            self.message_user(request, f"Left out {turn.pk}: {why}.", messages.WARNING)
        body = "".join(json.dumps(case, ensure_ascii=False) + "\n" for case in export.cases)
        response = HttpResponse(body, content_type="application/jsonl; charset=utf-8")
        name = f"askapp-cases-{timezone.now():%Y%m%d-%H%M%S}.jsonl"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response

    @admin.action(description="Replay with today's engine (nothing is stored)")
    def replay(self, request: HttpRequest, queryset: QuerySet[Any]) -> HttpResponse:
        turns = list(queryset[: REPLAY_LIMIT + 1])
        if len(turns) > REPLAY_LIMIT:
            self.message_user(
                request, f"Replaying the first {REPLAY_LIMIT} answers only.", messages.WARNING
            )
        return self._replay_page(request, turns[:REPLAY_LIMIT])

    def _replay_page(self, request: HttpRequest, turns: list[Any]) -> HttpResponse:
        context = {
            **self.admin_site.each_context(request),
            "title": "Replay with today's engine",
            "opts": self.opts,
            "replays": [answer_replay(turn=turn) for turn in turns],
        }
        return TemplateResponse(request, "admin/askapp/answerturn/replay.html", context)
