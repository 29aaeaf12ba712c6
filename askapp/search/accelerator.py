"""The embedded accelerator (tantivy) on SQLite files: ranks chunk ids at scale, kept in step
with the database by a trigger-fed change log; SQL re-reads and filters whatever it ranks."""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import OperationalError, connections

from askapp.search.hits import KNOWN_CLASSIFICATIONS, Filters

logger = logging.getLogger(__name__)


class AcceleratorUnavailable(Exception):
    """The accelerator cannot answer (not installed, index unreadable); FTS5 answers instead."""


_ACCELERATORS: dict[tuple[str, str], SearchAccelerator | None] = {}
_ACCELERATORS_LOCK = threading.Lock()


def accelerator_for(using: str = "default") -> SearchAccelerator | None:
    """The accelerator for a SQLite file database, or None (in-memory, disabled, PostgreSQL).

    `ASKAPP_SEARCH_ACCELERATOR` (default True) turns it off; the index lives beside the
    database file, in `<database>.search/v1/`, unless `ASKAPP_SEARCH_INDEX_DIR` names
    another folder than `<database>.search`.
    """
    connection = connections[using]
    name = str(connection.settings_dict.get("NAME") or "")
    if (
        connection.vendor != "sqlite"
        or not settings.ASKAPP_SEARCH_ACCELERATOR
        or connection.is_in_memory_db()
    ):
        return None
    key = (using, name)
    with _ACCELERATORS_LOCK:
        if key not in _ACCELERATORS:
            folder = settings.ASKAPP_SEARCH_INDEX_DIR or f"{name}.search"
            _ACCELERATORS[key] = _open_accelerator(Path(folder) / _SCHEMA_VERSION, using)
        return _ACCELERATORS[key]


def _open_accelerator(folder: Path, using: str) -> SearchAccelerator | None:
    try:
        return SearchAccelerator(folder, using=using)
    except AcceleratorUnavailable:
        logger.warning("search accelerator disabled; FTS5 answers alone", exc_info=True)
        return None


def search_index_sync(using: str = "default") -> bool:
    """Bring the accelerator up to date with the database now. False if there is none."""
    accelerator = accelerator_for(using)
    return accelerator is not None and accelerator.sync()


_SCHEMA_VERSION = "v1"  # a new schema gets a new folder, which the first search rebuilds
_UNKNOWN = "-"  # the indexed classification of a chunk whose document's is not a known one
_OVERFETCH = 2
INLINE_BACKLOG = 20_000  # changes (or, for a rebuild, chunks) applied inside a request
_STATE_FILE = "askapp-state.json"


class SearchAccelerator:
    """A tantivy index of chunk text, with classification and entity as filter fields.

    In step with the database: triggers append every changed chunk id to askapp_chunk_change;
    before each search, one query compares the log's head (and the database's generation)
    with what this index has applied, and the index catches up if it is behind. Writers in
    several processes are serialised by tantivy's writer lock; a process that cannot take it
    searches the last committed index instead. Changes are applied only outside a
    transaction, so only committed writes ever reach the index. The state file beside the
    index records which generation and log position the committed index holds.
    """

    def __init__(self, folder: Path, *, using: str = "default") -> None:
        try:
            import tantivy
        except ImportError as exc:
            raise AcceleratorUnavailable("the tantivy package is not installed") from exc
        self._tantivy = tantivy
        self.folder = folder
        self.using = using
        self._lock = threading.Lock()
        self._schema = self._build_schema()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            self._index = tantivy.Index(self._schema, path=str(folder), reuse=True)
        except (OSError, ValueError) as exc:
            raise AcceleratorUnavailable(f"cannot open the search index in {folder}") from exc
        self._applied: tuple[str, int] = ("", -1)
        self._worker: threading.Thread | None = None

    def _build_schema(self) -> Any:
        builder = self._tantivy.SchemaBuilder()
        builder.add_integer_field("chunk", stored=True, indexed=True, fast=True)
        builder.add_text_field("text", stored=False, tokenizer_name="en_stem")
        builder.add_text_field("classification", stored=False, tokenizer_name="raw")
        builder.add_integer_field("entity", stored=False, indexed=True, fast=True)
        return builder.build()

    # search

    @staticmethod
    def page(limit: int) -> int:
        """How many candidates to rank for `limit` hits: SQL filters them again."""
        return limit * _OVERFETCH + 10

    def search(
        self, terms: list[str], limit: int, filters: Filters, *, filtered: bool = True
    ) -> list[tuple[int, float]] | None:
        """Ranked (chunk id, score) pairs, or None when this index cannot answer yet.

        `filtered=False` ranks by text alone, which lets tantivy prune (block-max WAND).
        """
        if not self._ready():
            return None
        query = self._query(terms, filters if filtered else None)
        if query is None:
            return []
        try:
            searcher = self._index.searcher()
            # count=False lets tantivy skip blocks that cannot reach the top (block-max WAND);
            # counting every match would visit them all.
            hits = searcher.search(query, self.page(limit), count=False).hits
            ids = searcher.fast_field_values("chunk", [address for _, address in hits])
            return [(pk, float(score)) for pk, (score, _) in zip(ids, hits, strict=True)]
        except ValueError as exc:
            raise AcceleratorUnavailable("the search index could not be read") from exc

    def _query(self, terms: list[str], filters: Filters | None) -> Any:
        tantivy = self._tantivy
        clauses = []
        for term in terms:
            try:  # a quoted term is analysed like the text (stemmed); it is never syntax
                clauses.append(
                    (tantivy.Occur.Should, self._index.parse_query(f'"{term}"', ["text"]))
                )
            except ValueError:
                continue
        if not clauses:
            return None
        if filters is None:
            return tantivy.Query.boolean_query(clauses)
        parts = [(tantivy.Occur.Must, tantivy.Query.boolean_query(clauses))]
        hidden = [*sorted(KNOWN_CLASSIFICATIONS - set(filters.classifications)), _UNKNOWN]
        parts.append(
            (
                tantivy.Occur.MustNot,
                tantivy.Query.term_set_query(self._schema, "classification", hidden),
            )
        )
        if filters.entity_ids is not None:
            wanted = [0, *filters.entity_ids]
            parts.append(
                (tantivy.Occur.Must, tantivy.Query.term_set_query(self._schema, "entity", wanted))
            )
        return tantivy.Query.boolean_query(parts)

    # keeping in step

    def sync(self) -> bool:
        """Catch up with the database now, however much there is to do; True when current."""
        head = self._head()
        with self._lock:
            self._load_state()
            if head == self._applied:
                return True
            if connections[self.using].in_atomic_block:
                return False  # uncommitted writes must not reach a shared index
            return self._catch_up(head)

    def _ready(self) -> bool:
        """Whether to answer from this index: it is current, or it was built from this very
        database and is at most a little behind (then the SQL re-read keeps answers right).

        A small backlog is applied inline; a rebuild or a large backlog runs in a background
        thread while FTS5 answers, so no request waits for a million chunks to be indexed.
        """
        head = self._head()
        if head == self._applied:
            return True
        if not self._lock.acquire(blocking=False):
            return head[0] == self._applied[0]  # another thread of ours is catching up
        try:
            self._load_state()
            if head == self._applied:
                return True
            if connections[self.using].in_atomic_block:
                return head[0] == self._applied[0]
            if self._backlog(head) <= INLINE_BACKLOG:
                self._catch_up(head)
            else:
                self._catch_up_in_background()
            return head[0] == self._applied[0]
        finally:
            self._lock.release()

    def _backlog(self, head: tuple[str, int]) -> int:
        generation, seq = head
        if generation == self._applied[0] and seq >= self._applied[1]:
            return seq - self._applied[1]
        with connections[self.using].cursor() as cursor:
            cursor.execute("SELECT count(*) FROM askapp_chunk")
            return cursor.fetchone()[0]

    def _catch_up_in_background(self) -> None:
        if self._worker is not None and self._worker.is_alive():
            return

        def work() -> None:
            try:
                self.sync()
            except Exception:
                logger.exception("search accelerator: background catch-up failed")
            finally:
                connections[self.using].close()  # this thread's own connection

        self._worker = threading.Thread(target=work, name="askapp-search-sync", daemon=True)
        self._worker.start()

    def _head(self) -> tuple[str, int]:
        with connections[self.using].cursor() as cursor:
            cursor.execute(
                # sqlite_sequence keeps the highest seq ever used, even after pruning.
                "SELECT generation, coalesce((SELECT seq FROM sqlite_sequence "
                "WHERE name = 'askapp_chunk_change'), 0) FROM askapp_search_state WHERE id = 1"
            )
            generation, seq = cursor.fetchone()
        return generation, seq

    def _load_state(self) -> None:
        try:
            state = json.loads((self.folder / _STATE_FILE).read_text())
            applied = (str(state["generation"]), int(state["seq"]))
        except (OSError, ValueError, KeyError, TypeError):
            applied = ("", -1)
        if applied != self._applied:
            self._index.reload()
            self._applied = applied

    def _catch_up(self, head: tuple[str, int]) -> bool:
        generation, seq = head
        rebuild = generation != self._applied[0] or seq < self._applied[1]
        try:
            # A rebuild gets a big heap so that it writes few, large segments: every segment
            # adds to the cost of each query.
            big = rebuild and self._backlog(head) > 100_000
            heap = 512_000_000 if big else 32_000_000
            writer = self._index.writer(heap_size=heap, num_threads=0 if big else 1)
        except ValueError:
            return False  # another process holds the writer lock and is catching up
        try:
            if rebuild:
                self._rebuild(writer)
            else:
                self._apply(writer, self._changed_since(self._applied[1], seq))
            writer.commit()
            writer.wait_merging_threads()
        finally:
            del writer  # releases the writer lock
        self._save_state(head)
        self._index.reload()
        self._applied = head
        self._prune(head[1])
        return True

    def _rebuild(self, writer: Any) -> None:
        writer.delete_all_documents()
        for rows in self._rows("", []):
            for row in rows:
                writer.add_document(self._document(*row))

    def _changed_since(self, applied: int, head: int) -> list[int]:
        with connections[self.using].cursor() as cursor:
            cursor.execute(
                "SELECT DISTINCT chunk_id FROM askapp_chunk_change WHERE seq > %s AND seq <= %s",
                [applied, head],
            )
            return [pk for (pk,) in cursor.fetchall()]

    def _apply(self, writer: Any, chunk_ids: list[int]) -> None:
        for start in range(0, len(chunk_ids), 500):
            batch = chunk_ids[start : start + 500]
            for pk in batch:
                writer.delete_documents_by_term("chunk", pk)
            marks = ", ".join("%s" for _ in batch)
            for rows in self._rows(f"WHERE c.id IN ({marks})", batch):
                for row in rows:
                    writer.add_document(self._document(*row))

    def _rows(self, where: str, params: list[int]) -> Iterable[list[tuple[Any, ...]]]:
        with connections[self.using].cursor() as cursor:
            cursor.execute(
                "SELECT c.id, c.text, d.classification, d.entity_id FROM askapp_chunk AS c "
                f"JOIN askapp_document AS d ON d.id = c.document_id {where}",
                params,
            )
            while rows := cursor.fetchmany(5000):
                yield rows

    def _document(self, pk: int, text: str, classification: str, entity_id: int | None) -> Any:
        known = classification if classification in KNOWN_CLASSIFICATIONS else _UNKNOWN
        return self._tantivy.Document(
            chunk=pk, text=text, classification=known, entity=entity_id or 0
        )

    def _save_state(self, head: tuple[str, int]) -> None:
        path = self.folder / _STATE_FILE
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps({"generation": head[0], "seq": head[1]}))
        temporary.replace(path)

    def _prune(self, seq: int) -> None:
        """Drop applied log rows, unless another writer holds the database right now."""
        connection = connections[self.using]
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA busy_timeout")
            (timeout,) = cursor.fetchone()
            cursor.execute("PRAGMA busy_timeout = 0")
            try:
                cursor.execute("DELETE FROM askapp_chunk_change WHERE seq <= %s", [seq])
            except OperationalError:  # a busy database only delays pruning
                logger.debug("change log not pruned: database busy", exc_info=True)
            finally:
                cursor.execute(f"PRAGMA busy_timeout = {int(timeout)}")
