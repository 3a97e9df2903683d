"""The script gnubg runs for starspiel (``gnubg -t -q -r -p gnubg_server.py``).

It runs inside gnubg's embedded Python, not starspiel's: it imports gnubg's own
``gnubg`` module and the standard library only. One JSON request per stdin line,
one answer per stdout line, prefixed by ``ANSWER_PREFIX`` because gnubg prints its
own messages on stdout too. Boards are gnubg's: two lists of 25 counts, the
opponent's side first, the side on roll second, each from its owner's view
(index 0 is that side's 1-point, index 24 its bar).

Requests (``op``): ``move`` (gnubg's best whole move for each board and roll, the
board it leads to and gnubg's evaluation of that board), ``evaluate`` (boards
with the opponent to roll, valued for the side that just moved) and ``ids``
(position ids, and the boards read back from them).
"""

import json
import sys

import gnubg  # gnubg's built-in module (built-ins are found before this folder's gnubg.py)

ANSWER_PREFIX = "@starspiel "


def _cube(objective):
    """Cubeless. ``win``: a 1-point match (gammons count nothing, equity 2 P(win) - 1);
    ``money``: money play with the Jacoby rule off (gammons 2 points, backgammons 3)."""
    return gnubg.cubeinfo(1, -1, 0, 1 if objective == "win" else 0, (0, 0), 0, 0)


def _context(request):
    return gnubg.evalcontext(0, int(request["plies"]), 1, 1, float(request.get("noise", 0.0)))


def _apply(board, move):
    """The board after ``move`` (gnubg's tuple of from/to points, 25 the bar, 0 off)."""
    mine, theirs = list(board[1]), list(board[0])
    for k in range(0, len(move), 2):
        src, dst = move[k], move[k + 1]
        if src <= 0:
            break
        mine[src - 1] -= 1
        if dst > 0:
            mine[dst - 1] += 1
            if theirs[24 - dst] == 1:  # a blot on our point dst is their point 25 - dst
                theirs[24 - dst] = 0
                theirs[24] += 1
    return [theirs, mine]


def _value_for_mover(board_after, cube, context):
    """gnubg's evaluation of the board after a move, for the side that moved."""
    swapped = (tuple(board_after[1]), tuple(board_after[0]))
    p = gnubg.evaluate(swapped, cube, context)
    return [1.0 - p[0], p[3], p[4], p[1], p[2]]


def answer(request):
    op = request["op"]
    if op == "ids":
        ids = [gnubg.positionid((tuple(b[0]), tuple(b[1]))) for b in request["boards"]]
        return {"ids": ids, "boards": [gnubg.positionfromid(i) for i in ids]}
    cube = _cube(request["objective"])
    context = _context(request)
    if op == "move":
        valued = request.get("valued", True)  # False: the move alone (faster)
        out = []
        for board, dice in zip(request["boards"], request["dice"]):
            board = (tuple(board[0]), tuple(board[1]))
            move = [int(x) for x in gnubg.findbestmove(board, cube, context, tuple(dice))]
            after = _apply(board, move)
            out.append(
                {
                    "move": move,
                    "text": gnubg.movetupletostring(tuple(move), board) if move else "",
                    "after": after,
                    "id_after": gnubg.positionid((tuple(after[0]), tuple(after[1]))),
                    "eval": _value_for_mover(after, cube, context) if valued else None,
                }
            )
        return {"results": out}
    if op == "evaluate":
        return {"evals": [_value_for_mover(b, cube, context) for b in request["boards"]]}
    raise ValueError(f"unknown op {op!r}")


def main():
    gnubg.command("set jacoby off")
    sys.stdout.write(ANSWER_PREFIX + json.dumps({"ready": True}) + "\n")
    sys.stdout.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            reply = answer(json.loads(line))
        except Exception as error:  # the client raises it with the request named
            reply = {"error": f"{type(error).__name__}: {error}"}
        sys.stdout.write(ANSWER_PREFIX + json.dumps(reply) + "\n")
        sys.stdout.flush()


main()
