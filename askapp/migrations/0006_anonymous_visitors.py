"""Anonymous conversations and feedback belong to an opaque visitor id instead of the session
key. Each session key in use gets a new random id, written into that session's data, so every
visitor keeps reaching what they asked (docs/adr/0031). A session that no longer exists owned
nothing reachable before either; its rows get an id nobody holds."""

import secrets
from importlib import import_module

from django.conf import settings
from django.db import migrations, models
from django.db.models import Q

VISITOR_SESSION_KEY = "askapp_visitor"


def give_visitors_ids(apps, schema_editor):
    Conversation = apps.get_model("askapp", "Conversation")
    Feedback = apps.get_model("askapp", "Feedback")
    store = import_module(settings.SESSION_ENGINE).SessionStore
    keys = set(
        Conversation.objects.filter(owner__isnull=True).values_list("visitor", flat=True)
    ) | set(Feedback.objects.filter(user__isnull=True).values_list("visitor", flat=True))
    for key in sorted(k for k in keys if k):
        visitor = secrets.token_hex(16)
        Conversation.objects.filter(owner__isnull=True, visitor=key).update(visitor=visitor)
        Feedback.objects.filter(user__isnull=True, visitor=key).update(visitor=visitor)
        if store().exists(key):
            session = store(session_key=key)
            session[VISITOR_SESSION_KEY] = visitor
            session.save()


class Migration(migrations.Migration):
    dependencies = [
        ("askapp", "0005_citation_classification"),
        ("sessions", "0001_initial"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="conversation", name="conversation_has_an_owner"),
        migrations.RemoveIndex(model_name="conversation", name="conversation_session_recent"),
        migrations.RemoveConstraint(model_name="feedback", name="feedback_one_per_session"),
        migrations.RenameField(model_name="conversation", old_name="session_key", new_name="visitor"),
        migrations.RenameField(model_name="feedback", old_name="session_key", new_name="visitor"),
        migrations.RunPython(give_visitors_ids, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="conversation",
            name="visitor",
            field=models.CharField(
                blank=True,
                help_text="The anonymous owner's opaque id (kept in their session), when owner is empty.",
                max_length=40,
            ),
        ),
        migrations.AddConstraint(
            model_name="conversation",
            constraint=models.CheckConstraint(
                condition=Q(owner__isnull=False) | ~Q(visitor=""),
                name="conversation_has_an_owner",
            ),
        ),
        migrations.AddIndex(
            model_name="conversation",
            index=models.Index(fields=["visitor", "-updated"], name="conversation_visitor_recent"),
        ),
        migrations.AddConstraint(
            model_name="feedback",
            constraint=models.UniqueConstraint(
                condition=Q(user__isnull=True),
                fields=("turn", "visitor"),
                name="feedback_one_per_visitor",
            ),
        ),
    ]
