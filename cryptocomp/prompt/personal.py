"""The personal list's prompt commands (``:add``, ``:remove``, ``:mine``): a part of
:class:`~cryptocomp.prompt.session.Session`, which they edit the list of."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import IndexFileError, QueryError
from ..files import shown
from ..rendering import Result, plural
from .reply import Reply

if TYPE_CHECKING:
    from ..index.index import Index
    from ..index.personal import Overlay, PersonalList

__all__ = ["PersonalCommands"]


class PersonalCommands:
    """The commands on the user's own list, mixed into the session (whose state they use)."""

    index: Index
    overlay: Overlay
    last: Result | None

    @property
    def fold_yo(self) -> bool:
        """Whether the dictionary folds ё (the session knows)."""
        raise NotImplementedError

    @property
    def personal(self) -> PersonalList:
        """The user's own list laid over the dictionary."""
        return self.overlay.personal

    def _word_arg(self, text: str) -> str:
        from ..index.personal import Overlay, check_word

        return check_word(text, Overlay.admits_of(self.index), fold_yo=self.fold_yo)

    def _saved(self, done: str) -> Reply:
        """Write the list back after an edit; when it cannot be, the edit stays in memory."""
        self.last = None
        try:
            self.personal.save()
        except IndexFileError as exc:
            return Reply(message=f"{done} (in memory only: {exc})")
        where = f" · {shown(self.personal.path)}" if self.personal.path else ""
        return Reply(message=f"{done}{where}")

    def _cmd_add(self, arg: str) -> Reply:
        from ..index.personal import parse_score
        from ..index.wordlists import DEFAULT_SCORE

        parts = arg.split()
        if not 1 <= len(parts) <= 2:
            raise QueryError("usage: :add WORD [SCORE] (a score from 1 to 100, default "
                             f"{DEFAULT_SCORE})")
        word = self._word_arg(parts[0])
        score = parse_score(parts[1]) if len(parts) == 2 else DEFAULT_SCORE
        known = word in self.index
        self.personal.add(word, score)
        return self._saved(f"{word}: score {score} in your list"
                           f"{'' if known else ' (added to the dictionary)'}")

    def _cmd_remove(self, arg: str) -> Reply:
        if not arg or len(arg.split()) != 1:
            raise QueryError("usage: :remove WORD")
        word = self._word_arg(arg)
        self.personal.remove(word)
        return self._saved(f"{word}: removed from the results")

    def _cmd_mine(self, arg: str) -> Reply:
        mine = self.personal
        where = shown(mine.path) if mine.path else "memory only"
        if not mine:
            return Reply(message=f"your list ({where}) is empty: :add WORD [SCORE], "
                                   ":remove WORD")
        lo, _, hi = arg.partition("-") if arg else ("", "", "")
        entries = mine.irange(lo.strip() or None, hi.strip() or None) if arg else \
            mine.irange()
        listed = ", ".join(f"{w} {s}" if s else f"-{w}" for w, s in entries)
        return Reply(message=f"your list ({where}): {plural(len(mine.added()), 'word')} "
                               f"scored, {len(mine.removed())} removed"
                               + (f": {listed}" if listed else ""))
