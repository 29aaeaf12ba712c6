"""Loading the knowledge base from files. Each file is one transaction: it is imported whole,
or (at its first bad row) not at all, and the failure reads `file:line: what is wrong`."""

from askapp.importers.base import ImportFailure, ImportReport
from askapp.importers.documents import document_files, import_documents
from askapp.importers.facts import FactOptions, import_facts
from askapp.importers.vocabulary import import_entities, import_metrics

__all__ = [
    "FactOptions",
    "ImportFailure",
    "ImportReport",
    "document_files",
    "import_documents",
    "import_entities",
    "import_facts",
    "import_metrics",
]
