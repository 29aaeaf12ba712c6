"""Loading the knowledge base from files. Each file is one transaction: it is imported whole,
or (at its first bad row) not at all, and the failure reads `file:line: what is wrong` (or, in
a JSON document, `file: facts.us-gaap.Revenues.units.USD[17]: what is wrong`)."""

from askapp.importers.base import ImportFailure, ImportReport
from askapp.importers.companyfacts import CompanyFactsOptions, import_companyfacts
from askapp.importers.concept_map import ConceptMap
from askapp.importers.documents import document_files, import_documents
from askapp.importers.facts import FactOptions, import_facts
from askapp.importers.vocabulary import import_entities, import_metrics

__all__ = [
    "CompanyFactsOptions",
    "ConceptMap",
    "FactOptions",
    "ImportFailure",
    "ImportReport",
    "document_files",
    "import_companyfacts",
    "import_documents",
    "import_entities",
    "import_facts",
    "import_metrics",
]
