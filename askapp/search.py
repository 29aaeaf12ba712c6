"""Chunking documents into passages, and ranked full-text search over them.

The database keeps its own full-text index in step on every write path (migration 0002):
SQLite FTS5 behind triggers, PostgreSQL a generated tsvector with a GIN index. On a SQLite
file database an embedded tantivy index accelerates ranking at scale (FTS5's bm25 scans the
whole posting list of every query term, which is too slow for common words at a million
chunks); it catches up from a trigger-fed change log before it answers, and every hit is
re-read and filtered in SQL, so a stale accelerator can miss a fresh passage but can never
return a deleted one or one the caller may not see. See docs/adr/ (full-text search).

    chunk_search()            the one entry point: ranked chunks, classification allow-list in SQL
    search_index_sync()       bring the accelerator up to date now (after a bulk import, say)
"""

from __future__ import annotations

import json
import logging
import os
import re
import threading
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import OperationalError, connections

from askapp.models import Chunk, Classification, Document, Entity
from engine.chunks import split_into_chunks

logger = logging.getLogger(__name__)


def document_chunks_rebuild(*, document: Document) -> list[Chunk]:
    """Replace a document's chunks with fresh ones cut from its body.

    Classification, entity and period stay on the Document only; search joins them at query
    time, so an edit of any of them (admin, service or raw ORM) is seen by the next search.
    """
    document.chunks.all().delete()
    return Chunk.objects.bulk_create(
        Chunk(document=document, ordinal=i, text=text)
        for i, text in enumerate(split_into_chunks(document.body))
    )


# --- query terms ----------------------------------------------------------------------------

_WORD = re.compile(r"[^\W_]+")
MAX_TERMS = 16
MAX_TERM_LENGTH = 40

# Words that carry no retrieval signal in a question about a financial knowledge base.
_STOP_WORDS_TEXT = """
    a about above after again against all also am an and any are as at be because been before
    being below between both but by can could did do does doing down during each either else
    ever few for from further get got had has have having he her here hers herself him himself
    his how i if in into is it its itself just let me might more most much must my myself no
    nor not now of off on once only or other ought our ours ourselves out over own per please
    same shall she should so some such tell than that the their theirs them themselves then
    there these they this those through to too under until up upon us very was we were what
    whats when where which while who whom whose why will with within without would you your
    yours yourself yourselves company companies many show give explain describe
    near
"""
STOP_WORDS = frozenset(_STOP_WORDS_TEXT.split())


def query_terms(text: str) -> list[str]:
    """The words of a question worth searching for: lowercased, deduplicated, no stop words.

    Every term is a run of letters and digits, so no user text ever reaches a query
    language as syntax; callers still quote each term themselves.
    """
    folded = unicodedata.normalize("NFKC", text).casefold()
    terms: list[str] = []
    for word in _WORD.findall(folded):
        if word in STOP_WORDS or len(word) > MAX_TERM_LENGTH or word in terms:
            continue
        if len(word) == 1 and not word.isdigit():
            continue  # the "s" of "Apple's", the "t" of "don't"
        terms.append(word)
        if len(terms) == MAX_TERMS:
            break
    return terms


# --- the entry point ------------------------------------------------------------------------

KNOWN_CLASSIFICATIONS = frozenset(Classification.values)


@dataclass(frozen=True, slots=True)
class _Filters:
    classifications: tuple[str, ...]
    entity_ids: tuple[int, ...] | None  # None: no narrowing

    def sql(self, document: str = "d") -> tuple[str, list[Any]]:
        """A WHERE fragment over the document table aliased `document`, and its parameters."""
        marks = ", ".join("%s" for _ in self.classifications)
        sql = f"{document}.classification IN ({marks})"
        params: list[Any] = list(self.classifications)
        if self.entity_ids is not None:
            ids = ", ".join("%s" for _ in self.entity_ids) or "NULL"
            sql += f" AND ({document}.entity_id IS NULL OR {document}.entity_id IN ({ids}))"
            params += self.entity_ids
        return sql, params


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One ranked chunk with what a citation needs from its document; higher score is better."""

    chunk_id: int
    document_id: int
    ordinal: int
    text: str
    title: str
    classification: str
    source: str
    entity: str | None
    period: str
    score: float


def chunk_search(
    *,
    query: str,
    limit: int,
    classifications: frozenset[str],
    entities: Sequence[str] = (),
    using: str = "default",
) -> list[SearchHit]:
    """Chunks ranked by relevance to `query`, best first.

    Only chunks whose document has a classification in `classifications` come back (an
    allow-list applied in SQL; unknown classifications never pass). `entities` (canonical
    names) narrows to documents about those entities or about none. Any text is a safe
    query; a query with no searchable word returns [].
    """
    terms = query_terms(query)
    allowed = tuple(sorted(classifications & KNOWN_CLASSIFICATIONS))
    if not terms or not allowed or limit <= 0:
        return []
    filters = _Filters(allowed, _entity_ids(entities, using) if entities else None)
    accelerator = accelerator_for(using)
    if accelerator is not None:
        hits = _accelerated(accelerator, terms, limit, filters, using)
        if hits is not None:
            return hits
    return _fetch(_database_ranked(terms, limit, filters, using), limit, filters, using)


def _entity_ids(names: Sequence[str], using: str) -> tuple[int, ...]:
    return tuple(
        Entity.objects.using(using).filter(name__in=list(names)).values_list("pk", flat=True)
    )


def _database_ranked(
    terms: list[str], limit: int, filters: _Filters, using: str
) -> list[tuple[int, float]]:
    if connections[using].vendor == "postgresql":
        return _postgres_ranked(terms, limit, filters, using)
    return _sqlite_ranked(terms, limit, filters, using)


def _accelerated(
    accelerator: SearchAccelerator, terms: list[str], limit: int, filters: _Filters, using: str
) -> list[SearchHit] | None:
    """Hits ranked by the accelerator, or None when it cannot answer (FTS5 answers then).

    The first try asks tantivy for the best chunks by text alone, which it answers fastest
    (filters would disable its block-max WAND pruning), and leaves the allow-list to SQL.
    Only if too few of those survive SQL does a second try filter inside tantivy too.
    Entity narrowing filters inside tantivy from the start: it makes the search cheaper.
    """
    try:
        for filtered in (filters.entity_ids is not None, True):
            ranked = accelerator.search(terms, limit, filters, filtered=filtered)
            if ranked is None:
                return None
            hits = _fetch(ranked, limit, filters, using)
            if filtered or len(hits) >= limit or len(ranked) < accelerator.page(limit):
                return hits
    except AcceleratorUnavailable:
        logger.warning("search accelerator unavailable; using FTS5", exc_info=True)
    return None


def _fetch(
    ranked: list[tuple[int, float]], limit: int, filters: _Filters, using: str
) -> list[SearchHit]:
    """The hits themselves, re-filtered in SQL: the allow-list holds whatever ranked them."""
    if not ranked:
        return []
    score_of = dict(ranked)
    where, params = filters.sql()
    marks = ", ".join("%s" for _ in score_of)
    connection = connections[using]
    # SQLite without statistics would start from the classification index and visit every
    # document; CROSS JOIN pins the join order so it starts from the few ids ranked.
    join = "CROSS JOIN" if connection.vendor == "sqlite" else "JOIN"
    sql = (
        "SELECT c.id, c.document_id, c.ordinal, c.text, d.title, d.classification, d.source, "
        f"e.name, d.period FROM askapp_chunk AS c {join} askapp_document AS d "
        "ON d.id = c.document_id LEFT JOIN askapp_entity AS e ON e.id = d.entity_id "
        f"WHERE c.id IN ({marks}) AND {where}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*score_of, *params])
        hits = [SearchHit(*row, score=score_of[row[0]]) for row in cursor.fetchall()]
    hits.sort(key=lambda hit: (-hit.score, hit.chunk_id))
    return hits[:limit]


# --- SQLite FTS5 ----------------------------------------------------------------------------


def _fts5_phrase(term: str) -> str:
    # Terms hold only letters and digits; quoting makes each one a plain FTS5 string.
    return '"' + term.replace('"', '""') + '"'


def _sqlite_ranked(
    terms: list[str], limit: int, filters: _Filters, using: str
) -> list[tuple[int, float]]:
    """Coordination levels: every term first, then dropping the commonest term at a time.

    Terms are ordered rarest first by document frequency, so the words dropped are the ones
    that say least; if even the rarest word alone finds too few, any word will do. A level's
    hits rank below every hit of the stricter level before it. At most FTS5_LEVELS + 1
    queries run, and each ranks at most FTS5_CANDIDATES matches.
    """
    frequency = {term: _document_frequency(term, using) for term in terms}
    present = sorted((t for t in terms if frequency[t]), key=lambda t: (frequency[t], t))
    ranked: list[tuple[int, float]] = []
    expressions = [" AND ".join(map(_fts5_phrase, present[:n])) for n in _levels(len(present))]
    if len(present) > 1:
        expressions.append(" OR ".join(map(_fts5_phrase, present)))
    for expression in expressions:
        found = _fts5_query(expression, limit + len(ranked), filters, using)
        ranked = _below(ranked, found)
        if len(ranked) >= limit:
            break
    return ranked[:limit]


FTS5_LEVELS = 4


def _levels(count: int) -> list[int]:
    """How many of the rarest terms each query requires: all, all but one, ..., then one."""
    sizes = list(range(count, 0, -1))
    return sizes if len(sizes) <= FTS5_LEVELS else [*sizes[: FTS5_LEVELS - 1], 1]


def _below(
    strict: list[tuple[int, float]], loose: list[tuple[int, float]]
) -> list[tuple[int, float]]:
    """Strict hits, then the loose ones not among them, shifted to score below every strict one."""
    seen = {pk for pk, _ in strict}
    rest = [(pk, score) for pk, score in loose if pk not in seen]
    if not strict or not rest:
        return strict + rest
    shift = min(0.0, min(s for _, s in strict) - max(s for _, s in rest) - 1e-6)
    return strict + [(pk, score + shift) for pk, score in rest]


def _fts5_query(
    expression: str, limit: int, filters: _Filters, using: str
) -> list[tuple[int, float]]:
    """bm25-ranked hits of one MATCH expression, over at most FTS5_CANDIDATES matches.

    bm25 costs microseconds per matching row, so when an expression matches more rows than
    that, only the newest FTS5_CANDIDATES of them (highest rowids) are ranked.
    """
    where, params = filters.sql()
    connection = connections[using]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT rowid FROM askapp_chunk_fts WHERE askapp_chunk_fts MATCH %s "
            "ORDER BY rowid DESC LIMIT 1 OFFSET %s",
            [expression, FTS5_CANDIDATES - 1],
        )
        floor = cursor.fetchone()
        # CROSS JOIN keeps the FTS5 table as the outer loop whatever the planner guesses.
        cursor.execute(
            "SELECT askapp_chunk_fts.rowid, bm25(askapp_chunk_fts) AS rank FROM askapp_chunk_fts "
            "CROSS JOIN askapp_chunk AS c ON c.id = askapp_chunk_fts.rowid "
            "CROSS JOIN askapp_document AS d ON d.id = c.document_id "
            f"WHERE askapp_chunk_fts MATCH %s AND askapp_chunk_fts.rowid >= %s AND {where} "
            "ORDER BY rank, askapp_chunk_fts.rowid LIMIT %s",
            [expression, floor[0] if floor else 0, *params, limit],
        )
        # bm25() is lower-is-better; callers get higher-is-better.
        return [(pk, -rank) for pk, rank in cursor.fetchall()]


FTS5_CANDIDATES = 5_000
_FREQUENCY_CAP = 20_000


def _document_frequency(term: str, using: str) -> int:
    """How many chunks hold `term` as FTS5 tokenises it, counted up to _FREQUENCY_CAP.

    Only the order in which terms are dropped depends on it; counting is cheap next to bm25
    (a posting costs nanoseconds to count, a match microseconds to rank), and an uncached
    count can never hide a word that has just been added.
    """
    with connections[using].cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM (SELECT 1 FROM askapp_chunk_fts "
            "WHERE askapp_chunk_fts MATCH %s LIMIT %s)",
            [_fts5_phrase(term), _FREQUENCY_CAP],
        )
        return cursor.fetchone()[0]


# --- PostgreSQL -----------------------------------------------------------------------------


def _postgres_ranked(
    terms: list[str], limit: int, filters: _Filters, using: str
) -> list[tuple[int, float]]:
    """All terms first (plainto_tsquery ANDs them), then any term, ranked by ts_rank."""
    every = "plainto_tsquery('english', %s)"
    ranked = _postgres_query(every, [" ".join(terms)], limit, filters, using)
    if len(ranked) < limit and len(terms) > 1:
        any_of = " || ".join("plainto_tsquery('english', %s)" for _ in terms)
        loose = _postgres_query(f"({any_of})", list(terms), limit, filters, using)
        ranked = _below(ranked, loose)
    return ranked[:limit]


def _postgres_query(
    tsquery: str, query_params: list[str], limit: int, filters: _Filters, using: str
) -> list[tuple[int, float]]:
    where, params = filters.sql()
    sql = (
        "SELECT c.id, ts_rank(c.search_vector, t.query) AS rank FROM askapp_chunk AS c "
        f"JOIN askapp_document AS d ON d.id = c.document_id, (SELECT {tsquery} AS query) AS t "
        f"WHERE c.search_vector @@ t.query AND {where} ORDER BY rank DESC, c.id LIMIT %s"
    )
    with connections[using].cursor() as cursor:
        cursor.execute(sql, [*query_params, *params, limit])
        return [(pk, float(rank)) for pk, rank in cursor.fetchall()]


# --- the embedded accelerator (tantivy) on SQLite files -------------------------------------


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
        self, terms: list[str], limit: int, filters: _Filters, *, filtered: bool = True
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

    def _query(self, terms: list[str], filters: _Filters | None) -> Any:
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
