"""What every game's table view must be (``sim.api``'s TableView), for the games' view tests."""

from __future__ import annotations

import json
from collections.abc import Collection

from sim.api import Score, TableView, ViewRow, Zone
from sim.cards import NUM_CARDS, card_name

PLAYING_CARD_FACES = frozenset(card_name(card) for card in range(NUM_CARDS)) | {"back"}


def check_table_view(table: TableView, faces: Collection[str] = PLAYING_CARD_FACES) -> None:
    """The view is plain JSON with the TypedDicts' keys and types, every card one of ``faces``."""
    json.dumps(table)
    assert set(table) == set(TableView.__annotations__)
    assert all(isinstance(fact, str) for fact in table["facts"])
    for score in table["scores"]:
        assert set(score) == set(Score.__annotations__) and isinstance(score["name"], str)
        assert isinstance(score["score"], int)
    for zone in table["zones"]:
        assert set(zone) == set(Zone.__annotations__) and isinstance(zone["title"], str)
        for row in zone["rows"]:
            assert {"label", "cards"} <= set(row) <= set(ViewRow.__annotations__)
            assert isinstance(row["label"], str) and isinstance(row.get("note", ""), str)
            assert all(face in faces for face in row["cards"]), row


def faces_shown(table: TableView) -> set[str]:
    """Every face the view shows anywhere."""
    return {face for zone in table["zones"] for row in zone["rows"] for face in row["cards"]}


def zone(table: TableView, title: str) -> Zone:
    """The view's zone called ``title``."""
    return next(zone for zone in table["zones"] if zone["title"] == title)
