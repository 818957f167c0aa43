"""A web search behind the ``search`` tool: Tavily (spec 003's named service), through its official client.

Built only when the user's own config has ``chat.search.web`` (see config/chat.py): the
default search stays local. The client is ``tavily-python`` (``pip install 'ragix[web]'``),
pointed at ``base_url`` when set (a proxy, a gateway, the tests' loopback server).

What comes back is a stranger's text: at most ``max_results`` results (and never more
than the tool's ``top_k``), each cut to ``max_chars``, the whole answer refused past
``MAX_ANSWER_BYTES`` before it is parsed, and each result's text quoted line by line so the
models read it as a quotation (``format_hits`` adds the untrusted-data notice). Every
failure — a refused key, a rate limit, no answer in time, an answer that is not Tavily's
JSON — is a ``WebSearchError`` whose text names it; ``search_all`` hands it to the engine
as that provider's error, never a traceback.
"""

from __future__ import annotations

import os
from typing import Any, List, Mapping, Optional

from ragix_core.core.text import bounded, one_line

from .search_protocol import ProviderError, SearchHit

__all__ = ["WebSearchError", "TavilyProvider", "web_provider", "quoted", "WEB_SOURCE", "MAX_ANSWER_BYTES"]

WEB_SOURCE = "web"
MAX_ANSWER_BYTES = 512 * 1024  # ten results of a few thousand characters each fit many times over


class WebSearchError(RuntimeError):
    """A web search that failed; the text says how (and never holds the key)."""


def quoted(text: str) -> str:
    """Each line of ``text`` behind "> ": a quotation, whatever it says."""
    return "\n".join("> " + line for line in text.splitlines() or [""])


def _bounded_session(limit: int) -> Any:
    """A requests session that reads at most ``limit`` bytes of an answer (the client reads it whole)."""
    import requests

    class BoundedSession(requests.Session):
        def request(self, method: str, url: str, **kwargs: Any) -> Any:  # type: ignore[override]
            kwargs["stream"] = True
            response = super().request(method, url, **kwargs)
            try:
                body = response.raw.read(limit + 1, decode_content=True)
            except Exception as exc:  # a read that stalls past the timeout, a connection cut mid-answer
                raise requests.exceptions.ReadTimeout(f"reading the answer failed: {type(exc).__name__}") from None
            finally:
                response.close()
            if len(body) > limit:
                raise WebSearchError(f"the answer is larger than {limit // 1024} KiB; not read")
            response._content, response._content_consumed = body, True
            return response

    return BoundedSession()


class TavilyProvider:
    name = WEB_SOURCE

    def __init__(self, *, api_key: str, base_url: Optional[str], max_results: int, max_chars: int,
                 search_depth: str, timeout: float) -> None:
        try:
            from tavily import TavilyClient
        except ImportError as exc:
            raise ProviderError(f"web search (tavily) needs the optional 'tavily-python' package "
                                f"(pip install 'ragix[web]'): {exc}") from None
        self.where = base_url or "https://api.tavily.com"
        self.max_results, self.max_chars = max_results, max_chars
        self.search_depth, self.timeout = search_depth, timeout
        # An explicit key and our own session: the client never falls back to its keyless mode or the environment.
        self.client = TavilyClient(api_key=api_key, api_base_url=base_url, client_source="ragix",
                                   session=_bounded_session(MAX_ANSWER_BYTES))

    def close(self) -> None:
        self.client.close()

    def search(self, query: str, top_k: int) -> List[SearchHit]:
        answer = self._ask(query, min(top_k, self.max_results))
        results = answer.get("results") if isinstance(answer, Mapping) else None
        if not isinstance(results, list):
            raise WebSearchError(f"tavily answered JSON without a list of results "
                                 f"(got {type(results if isinstance(answer, Mapping) else answer).__name__})")
        hits = []
        for item in results[: min(top_k, self.max_results)]:
            if not isinstance(item, Mapping) or not isinstance(item.get("content") or "", str):
                raise WebSearchError("tavily answered a result that is not {title, url, content}: "
                                     + one_line(item, 120))
            score = item.get("score")
            hits.append(SearchHit(WEB_SOURCE, one_line(item.get("title") or item.get("url") or "untitled", 200),
                                  quoted(bounded(str(item.get("content") or "").strip(), self.max_chars)),
                                  ref=one_line(item.get("url") or "", 300),
                                  score=float(score) if isinstance(score, (int, float)) else 0.0))
        return hits

    def _ask(self, query: str, count: int) -> Any:
        import requests
        from tavily import errors

        try:
            return self.client.search(query, max_results=count, search_depth=self.search_depth, timeout=self.timeout,
                                      include_answer=False, include_raw_content=False, include_images=False)
        except WebSearchError:
            raise
        except errors.InvalidAPIKeyError as exc:
            raise WebSearchError(f"tavily refused the API key (HTTP 401){_detail(exc)}") from None
        except errors.UsageLimitExceededError as exc:
            raise WebSearchError(f"tavily's rate or usage limit is reached (HTTP 429){_detail(exc)}") from None
        except errors.ForbiddenError as exc:
            raise WebSearchError(f"tavily forbids this request (HTTP 403){_detail(exc)}") from None
        except errors.BadRequestError as exc:
            raise WebSearchError(f"tavily refused the request (HTTP 400){_detail(exc)}") from None
        except requests.exceptions.JSONDecodeError:
            raise WebSearchError("tavily's answer is not JSON") from None
        except errors.TimeoutError:
            raise WebSearchError(f"tavily gave no answer within {self.timeout:g}s") from None
        except requests.exceptions.HTTPError as exc:
            status = getattr(exc.response, "status_code", "?")
            raise WebSearchError(f"tavily answered HTTP {status}") from None
        except requests.exceptions.ConnectionError:
            raise WebSearchError(f"cannot reach {self.where}") from None
        except requests.exceptions.RequestException as exc:
            raise WebSearchError(f"the request to {self.where} failed: {type(exc).__name__}") from None
        except (ValueError, AttributeError, TypeError):  # the client's json() or its setdefault on a non-object
            raise WebSearchError("tavily's answer is not the JSON object of a search") from None


def _detail(exc: Exception) -> str:
    text = one_line(exc, 200)
    return f": {text}" if text else ""


def web_provider(section: Any, timeout: float, environ: Optional[Mapping[str, str]] = None) -> TavilyProvider:
    """The provider ``chat.search.web`` describes; ``ProviderError`` when its key is not there."""
    env = os.environ if environ is None else environ
    key = section.api_key or env.get(section.api_key_env or "", "")
    if not key.strip():
        raise ProviderError(f"chat.search.web: the variable {section.api_key_env} that should hold the "
                            f"{section.provider} API key is not set")
    return TavilyProvider(api_key=key.strip(), base_url=section.base_url, max_results=section.max_results,
                          max_chars=section.max_chars, search_depth=section.search_depth, timeout=timeout)
