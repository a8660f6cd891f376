"""Reading a person's interests in any shipped language as the catalog's tags.

The tags are a closed vocabulary (gifts.interest_vocabulary, edited as `InterestTerm` rows):
each has a label and common word forms per language. An interest matches a tag when it is
the tag, one of its forms in any language, or, for other words, shares their stem (a common
prefix that leaves at most a few letters of ending: "ogrodnictwem" → "ogrodnictwo"). Chinese
has no spaces between words, so a Chinese interest matches every tag whose Chinese form it
contains ("我喜欢园艺" → gardening).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

_SEPARATORS = re.compile(r"[\s\-_]+")
# The shortest stem the prefix fallback trusts, and the longest ending it lets differ.
_MIN_STEM = 5
_MAX_ENDING = 3
_MEMO_SIZE = 4096


def normalized(text: str) -> str:
    """Case-folded, NFKC, with hyphens, underscores and runs of spaces as one space."""
    return _SEPARATORS.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()


def _is_cjk(text: str) -> bool:
    return any("\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" for ch in text)


def _same_stem(word: str, form: str) -> bool:
    if len(word) < _MIN_STEM or len(form) < _MIN_STEM:
        return False
    shared = 0
    for a, b in zip(word, form, strict=False):
        if a != b:
            break
        shared += 1
    return shared >= max(_MIN_STEM, max(len(word), len(form)) - _MAX_ENDING)


@dataclass
class Vocabulary:
    """The tags' words, ready to match. `terms` holds (tag, language, label, forms)."""

    terms: Iterable[tuple[str, str, str, Iterable[str]]]  # kept as a tuple of tuples
    tags: frozenset[str] = field(init=False)
    _by_form: dict[str, frozenset[str]] = field(init=False, repr=False)
    _cjk: tuple[tuple[str, str], ...] = field(init=False, repr=False)
    # Forms by their first _MIN_STEM letters: a stem is compared only with forms that share them.
    _by_stem: dict[str, tuple[tuple[str, frozenset[str]], ...]] = field(init=False, repr=False)
    _labels: dict[tuple[str, str], str] = field(init=False, repr=False)
    _memo: dict[str, frozenset[str]] = field(init=False, repr=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.terms = tuple(
            (tag, lang, label, tuple(forms)) for tag, lang, label, forms in self.terms
        )
        by_form: dict[str, set[str]] = {}
        labels: dict[tuple[str, str], str] = {}
        tags: set[str] = set()
        for tag, language, label, forms in self.terms:
            tags.add(tag)
            labels.setdefault((tag, language), label)
            for word in (tag, label, *forms):
                by_form.setdefault(normalized(word), set()).add(tag)
        self.tags = frozenset(tags)
        self._by_form = {form: frozenset(found) for form, found in by_form.items()}
        self._cjk = tuple(
            sorted((form, tag) for form, found in by_form.items() if _is_cjk(form) for tag in found)
        )
        self._labels = labels
        by_stem: dict[str, list[tuple[str, frozenset[str]]]] = {}
        for form, found in sorted(self._by_form.items()):
            if len(form) >= _MIN_STEM and not _is_cjk(form):
                by_stem.setdefault(form[:_MIN_STEM], []).append((form, found))
        self._by_stem = {stem: tuple(forms) for stem, forms in by_stem.items()}

    def tags_for(self, interest: str) -> frozenset[str]:
        """The tags `interest` names; an unknown word names itself (it may be a category or a
        tag added since), so it still matches a product that has it."""
        text = normalized(interest)
        found = self._memo.get(text)
        if found is None:
            found = self._resolve(text)
            if len(self._memo) >= _MEMO_SIZE:  # people type many words: forget, do not grow
                self._memo.clear()
            self._memo[text] = found
        return found

    def _resolve(self, text: str) -> frozenset[str]:
        exact = self._by_form.get(text)
        if exact is not None:
            return exact
        itself = text.replace(" ", "-")
        if _is_cjk(text):
            return frozenset({tag for form, tag in self._cjk if form in text} or {itself})
        stems = {
            tag
            for form, found in self._by_stem.get(text[:_MIN_STEM], ())
            if _same_stem(text, form)
            for tag in found
        }
        return frozenset({*stems, itself})

    def label(self, tag: str, language: str) -> str:
        """The tag as people read it in `language`, else in English, else the tag itself."""
        return self._labels.get((tag, language)) or self._labels.get((tag, "en")) or tag
