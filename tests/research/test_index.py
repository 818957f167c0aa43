"""The document index: parsing by structure, incremental updates, skips counted, search, location."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from ragix_core.research import DocumentIndex
from ragix_core.research.chunking import chunk_blocks
from ragix_core.research.documents import Block, Unreadable, read_document
from ragix_core.research.index import IndexError_, index_location


def _pdf_bytes(text: str) -> bytes:
    """A one-page PDF with ``text`` in Helvetica, built by hand (offsets computed)."""
    stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode()
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
            b"/Resources << /Font << /F1 5 0 R >> >> >>",
            b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for n, body in enumerate(objs, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % n + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    return bytes(out)


def test_markdown_keeps_headings_and_front_matter_date(tmp_path):
    p = tmp_path / "a.md"
    p.write_text("---\ndate: 2024-03-05\ntitle: Guide\n---\n# Top\n\nIntro text.\n\n## Keys\n\n- rotate monthly\n\n"
                 "```\ncode here\n```\n")
    doc = read_document(p)
    assert doc.title == "Guide" and doc.date == "2024-03-05"
    assert [(b.heading, b.text) for b in doc.blocks] == [("Top", "Intro text."), ("Top > Keys", "rotate monthly"),
                                                          ("Top > Keys", "code here")]


def test_html_drops_scripts_and_navigation_and_follows_headings(tmp_path):
    p = tmp_path / "a.html"
    p.write_text("<html><head><title>T</title><script>var x</script></head><body><nav>Home | About</nav>"
                 "<h1>One</h1><p>first <b>bold</b> words</p><div><h2>Two</h2><ul><li>item</li></ul></div>"
                 "<pre>  keep\n  lines</pre></body></html>")
    doc = read_document(p)
    texts = [(b.heading, b.text) for b in doc.blocks]
    assert doc.title == "T"
    assert ("One", "first bold words") in texts and ("One > Two", "item") in texts
    assert ("One > Two", "keep\n  lines") in texts
    assert not any("var x" in t or "Home" in t for _, t in texts)


def test_a_paragraph_of_one_bold_phrase_heads_what_follows_it(tmp_path):
    # the shape of a manual's list of limits: each item's title is a bold paragraph, not an <hN>
    p = tmp_path / "limits.html"
    p.write_text("<html><body><h2>Limits</h2><ul>"
                 "<li><p><b>Maximum Length Of A Line</b></p><p>Lines stop at 80 columns.</p></li>"
                 "<li><p><strong>Maximum Depth</strong></p><p>Nesting stops at 8.</p></li></ul>"
                 "<p><b>Note:</b></p><p>A <b>bold</b> word inside a sentence is emphasis.</p>"
                 "<h2>Other</h2><p>after</p></body></html>")
    texts = [(b.heading, b.text) for b in read_document(p).blocks]
    assert ("Limits > Maximum Length Of A Line", "Lines stop at 80 columns.") in texts
    assert ("Limits > Maximum Depth", "Nesting stops at 8.") in texts  # the next bold title replaces the first
    # a label ending in a colon and emphasis inside a sentence are not titles; a real heading ends the section
    assert ("Limits > Maximum Depth", "Note:") in texts
    assert ("Limits > Maximum Depth", "A bold word inside a sentence is emphasis.") in texts
    assert ("Other", "after") in texts


def test_deeply_nested_html_is_read_without_recursion(tmp_path):
    p = tmp_path / "deep.html"
    p.write_text("<div>" * 5000 + "<p>bottom</p>" + "</div>" * 5000)
    assert [b.text for b in read_document(p).blocks] == ["bottom"]


def test_pdf_text_is_extracted_per_page(tmp_path):
    p = tmp_path / "a.pdf"
    p.write_bytes(_pdf_bytes("Quellmere is the capital"))
    doc = read_document(p)
    assert doc.blocks and doc.blocks[0].heading == "page 1" and "Quellmere is the capital" in doc.blocks[0].text


def test_broken_pdf_and_binary_text_are_unreadable_with_a_reason(tmp_path):
    (tmp_path / "b.pdf").write_bytes(b"%PDF-1.4 garbage")
    (tmp_path / "c.txt").write_bytes(b"abc\x00def")
    with pytest.raises(Unreadable, match="PDF"):
        read_document(tmp_path / "b.pdf")
    with pytest.raises(Unreadable, match="binary"):
        read_document(tmp_path / "c.txt")


def test_chunks_never_span_two_sections_and_respect_the_size():
    blocks = [Block("A", "x " * 100), Block("A", "y " * 100), Block("B", "z.")]
    chunks = chunk_blocks(blocks, max_chars=250)
    assert [c.heading for c in chunks] == ["A", "A", "B"]
    assert all(len(c.text) <= 250 for c in chunks)
    long = chunk_blocks([Block("", "Sentence one is here. " * 60)], max_chars=200)
    assert len(long) > 5 and all(len(c.text) <= 200 for c in long)


def test_update_is_incremental_by_content_hash(docs):
    idx = DocumentIndex.open(docs)
    first = idx.update()
    assert first.indexed == 6 and first.unchanged == 0 and first.documents == 6
    again = idx.update()
    assert again.indexed == 0 and again.unchanged == 6
    p = docs / "official" / "zorblat.md"
    os.utime(p, (time.time() + 5, time.time() + 5))  # touched, same bytes: not re-indexed
    assert idx.update().indexed == 0
    p.write_text(p.read_text() + "\nZorblat opened a plant in Brindle.\n")
    changed = idx.update()
    assert changed.indexed == 1 and idx.search("Brindle plant", 3)[0].path == "official/zorblat.md"
    (docs / "news" / "teapots.txt").unlink()
    gone = idx.update()
    assert gone.removed == 1 and gone.documents == 5 and not idx.search("Gazette teapots units", 3, accept=lambda p: p.startswith("news"))


def test_unreadable_and_unsupported_files_are_counted_never_fatal(docs):
    (docs / "bin.txt").write_bytes(b"\x00\x01\x02")
    (docs / "broken.pdf").write_bytes(b"%PDF-1.4 nothing")
    (docs / "image.png").write_bytes(b"\x89PNG")
    (docs / "empty.md").write_text("   \n")
    idx = DocumentIndex.open(docs)
    stats = idx.update()
    assert stats.documents == 6
    assert stats.skipped["unreadable"] == 3 and stats.skipped["unsupported type"] == 1
    assert any(e.startswith("bin.txt: binary") for e in stats.skipped_examples)
    again = idx.update()  # unchanged unreadable files are counted again without being re-read
    assert again.skipped["unreadable"] == 3 and again.indexed == 0


def test_search_returns_paths_chunk_ids_text_and_scores(index):
    hits = index.search("capital of Vantoria", k=2)
    assert hits[0].path == "official/vantoria.html" and hits[0].chunk == "official/vantoria.html#0"
    assert "Quellmere" in hits[0].text and hits[0].score > 0
    assert index.get(hits[0].chunk).text == hits[0].text
    assert index.get("official/vantoria.html#99") is None and index.get("nonsense") is None


def test_search_text_never_reaches_the_fts_query_language(index):
    for q in ['"unbalanced', "a OR b)", "NEAR(x y)", "col:*", ""]:
        index.search(q, 3)  # no exception


def test_search_filters_by_path_and_date(index):
    assert all(h.path.startswith("forum/") for h in index.search("Zorblat employs people", 5,
                                                                  accept=lambda p: p.startswith("forum/")))
    dated = index.search("Zorblat Vantoria", 10, since="2024-01-01", until="2024-12-31")
    assert {h.path for h in dated} == {"official/zorblat.md"}


def test_index_lives_in_the_directory_else_a_user_cache(tmp_path, monkeypatch):
    docs = tmp_path / "docs"
    docs.mkdir()
    assert index_location(docs) == docs / ".ragix"
    blocked = tmp_path / "blocked"
    blocked.mkdir()
    (blocked / ".ragix").write_text("a file where the folder would go")  # cannot create .ragix/
    monkeypatch.setattr("ragix_core.research.index._cache_root", lambda: tmp_path / "cache")
    where = index_location(blocked)
    assert where.parent == tmp_path / "cache" and where.is_dir()
    assert index_location(docs, tmp_path / "explicit") == tmp_path / "explicit"
    with pytest.raises(IndexError_, match="--index"):
        index_location(docs, blocked / ".ragix" / "sub")


def test_a_missing_directory_is_a_clear_error(tmp_path):
    with pytest.raises(IndexError_, match="not found"):
        DocumentIndex.open(tmp_path / "nope")


def test_hidden_folders_and_outside_symlinks_are_not_indexed(docs, tmp_path):
    (docs / ".git").mkdir()
    (docs / ".git" / "secret.md").write_text("# hidden\n")
    outside = tmp_path / "outside.md"
    outside.write_text("# Outside\n\nnot part of the collection\n")
    (docs / "link.md").symlink_to(outside)
    stats = DocumentIndex.open(docs).update()
    assert stats.documents == 6 and stats.skipped["outside the directory"] == 1
