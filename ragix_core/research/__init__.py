"""Deep research over local documents: the actor-critic engine of spec 004.

    from ragix_core.research import DocumentIndex, DeepResearchOrchestrator
    index = DocumentIndex.open("docs/"); index.update()
    items = DeepResearchOrchestrator(index, settings=..., roles=...).run_research("question", "strict")

Layout (spec 004 Phase 2): ``orchestrator`` (the loop), ``agents/`` (analyst, critic, writer,
clarification), ``filters/`` (source tiers), ``utils/`` (iteration logger); and beside them
``documents``/``chunking``/``index`` (the collection), ``settings`` (sources -> tiers),
``context``/``draft``/``checks`` (what agents read, write and are checked against), ``items``
(the output contract), ``engine`` (the registry entry ``research``).
"""

from ragix_core.config.research import ResearchSection

from .filters import NoValidSourcesError, SourceTierFilter
from .index import DocumentIndex, Hit, IndexError_, IndexStats
from .items import ResearchItem, validate_items
from .orchestrator import DeepResearchOrchestrator
from .settings import SourceMap, load_settings
from .utils import IterationLogger

__all__ = ["DocumentIndex", "Hit", "IndexStats", "IndexError_", "DeepResearchOrchestrator", "SourceTierFilter",
           "NoValidSourcesError", "IterationLogger", "ResearchItem", "validate_items", "ResearchSection",
           "SourceMap", "load_settings"]
