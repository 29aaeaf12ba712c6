"""Review of answers: reviewers' verdicts, and an index of what each answer cites.

`Turn.sources` is frozen JSON, which is right for showing what a user saw, but "which answers
cite this fact?" cannot be asked of JSON on every database (SQLite has no JSON containment).
`Citation` keeps one row per source of an answer turn, written beside the turn by
`askapp.services.citations.turn_citations_record`, so the question is an indexed join.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from askapp.models.conversations import Turn
from askapp.models.knowledge import Document, Fact


class AnswerTurnManager(models.Manager["AnswerTurn"]):
    def get_queryset(self) -> models.QuerySet[AnswerTurn]:
        return super().get_queryset().filter(role=Turn.Role.ASSISTANT, origin=Turn.Origin.ASKED)


class AnswerTurn(Turn):
    """The answers askapp gave (not assistant text a stateless client supplied as history):
    what reviewers audit. Same rows as Turn, no table of its own."""

    objects = AnswerTurnManager()

    class Meta:
        proxy = True
        ordering = ["-created"]
        verbose_name = "answer"
        verbose_name_plural = "answers"

    def __str__(self) -> str:
        question = self.answers.text if self.answers_id else ""
        if not question:
            return f"Answer {self.pk}"
        return f"Answer to: {question[:77]}…" if len(question) > 80 else f"Answer to: {question}"


class Review(models.Model):
    """A reviewer's verdict on one answer turn. Setting a new verdict replaces the old one."""

    class Verdict(models.TextChoices):
        CORRECT = "correct", "Correct"
        WRONG = "wrong", "Wrong"
        SHOULD_HAVE_REFUSED = "should_have_refused", "Should have refused"
        SHOULD_HAVE_ANSWERED = "should_have_answered", "Should have answered"

    turn = models.OneToOneField(
        Turn,
        on_delete=models.CASCADE,
        related_name="review",
        limit_choices_to={"role": Turn.Role.ASSISTANT},
    )
    verdict = models.CharField(max_length=20, choices=Verdict.choices)
    note = models.TextField(blank=True)
    expected_value = models.DecimalField(
        "right figure",
        max_digits=28,
        decimal_places=6,
        null=True,
        blank=True,
        help_text="For a wrong answer: the figure it should have given, when the reviewer "
        "knows it. Exported cases expect it; a wrong answer without it is not exported.",
    )
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="answer_reviews",
    )
    reviewed_at = models.DateTimeField()

    class Meta:
        ordering = ["-reviewed_at"]
        indexes = [models.Index(fields=["verdict", "-reviewed_at"], name="review_verdict_recent")]

    def __str__(self) -> str:
        return f"{self.get_verdict_display()} on {self.turn_id}"


class Citation(models.Model):
    """One source an answer turn rests on, as an indexed row.

    `source_id` is the id the engine gave the source ("fact:12", "chunk:34"). A fact source
    points to its Fact; a passage source points to its Document, because a document's chunks
    are cut afresh on every edit and the chunk a passage came from may no longer exist.
    Either pointer becomes NULL when its row is deleted; the turn's frozen sources keep the
    full record. `classification` is the source's classification when it was cited: once the
    row is gone, it is what decides who may still read the answer (docs/adr/0029).
    """

    class Kind(models.TextChoices):
        FACT = "fact", "Fact"
        PASSAGE = "passage", "Passage"

    # The (turn, source_id) unique index serves every per-turn read (ADR 0057).
    turn = models.ForeignKey(
        Turn, on_delete=models.CASCADE, related_name="citations", db_index=False
    )
    source_id = models.CharField(max_length=100)
    kind = models.CharField(max_length=7, choices=Kind.choices)
    # A citation points to a fact or to a document, never both: each is indexed where set
    # (ADR 0069), so a citation writes one of the two indexes, not both.
    fact = models.ForeignKey(
        Fact,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="citations",
        db_index=False,
    )
    document = models.ForeignKey(
        Document,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="citations",
        db_index=False,
    )
    classification = models.CharField(
        max_length=12, blank=True, help_text="The source's classification when it was cited."
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["turn", "source_id"], name="citation_unique_source"),
        ]
        indexes = [
            models.Index(fields=["fact"], name="citation_fact", condition=Q(fact__isnull=False)),
            models.Index(
                fields=["document"], name="citation_document", condition=Q(document__isnull=False)
            ),
        ]

    def __str__(self) -> str:
        return f"{self.turn_id} cites {self.source_id}"
