"""``docs/engine-protocol.md`` "A position carries no history": the ``position`` line is the
position's text, and the history the referee keeps (Interaction's repetitions) is not in it."""

from __future__ import annotations

import arena.games

#: from Interaction's start: the position after plies 2, 4 and 6 is the same, red to move
LINE = ["a6SW", "a4NW", "c4N", "c7S", "i4S", "h8W"]


def test_a_position_text_carries_no_repetition_history():
    """Played with its history, the line ends by threefold repetition; the same position read
    from its text (what an engine gets) is a game going on: a search through the protocol
    sees that line differently than in-process (why the same mcts spec and seed can choose
    other moves as an engine)."""
    game = arena.games.make("interaction")
    state = game.initial_state(0)
    for move in LINE:
        state = state.play(game.parse_move(state, move))
    assert state.is_terminal() and state.outcome().termination == "repetition"
    text_only = game.parse_state(state.to_text())
    assert text_only.to_text() == state.to_text() and not text_only.is_terminal()
    assert text_only.legal_moves()
