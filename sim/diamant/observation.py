"""What a Diamant strategy sees: one int64 vector, the same in both engines.

It starts with the header every game's vector has (sim/core/observation.py): the deciding seat,
the decision kind (one), the number of legal actions (two) and where the legal list
[CONTINUE, LEAVE] lies, so the index a strategy returns is the action itself. Then it holds the
public state (revealed cards, leftovers, who is in the cave, what is left in the
deck as counts, never its order) plus the deciding player's own carried gems and chest.
Strategies index it with the constants below. Other players' chests are -1 when the rule
set hides chests.
"""
from ..core import observation as H
from .rules import MAX_HAZARD_KINDS, MAX_PLAYERS, MAX_TREASURES

CONTINUE = 0             # actions, and their indices in the legal list
LEAVE = 1

# the common header (sim/core/observation.py): one decision kind, legal list [continue, leave]
SEAT = H.SEAT            # the deciding seat
DECISION = H.DECISION    # always STAY_OR_LEAVE
N_LEGAL = H.N_LEGAL      # always 2
LEGAL_AT = H.LEGAL_AT    # holds LEGAL
CARDS_REVEALED = 4       # cards revealed in this cave, all kinds
HAZARDS_REVEALED = 5     # hazard cards revealed in this cave
CARRIED = 6              # own gems carried in this cave (not yet safe)
CHEST = 7                # own chest (gems only)
IN_CAVE = 8              # players still in the cave, self included
LEFTOVER = 9             # gems lying on the revealed cards
DECK_SIZE = 10           # cards left in the deck
DECK_TREASURE_SUM = 11   # total gem value of treasure cards left in the deck
DECK_TREASURES = 12      # treasure cards left in the deck
DECK_HAZARDS = 13        # hazard cards left in the deck
HAZARDS_TO_END = 14      # rule: same-kind hazards that end the round
HAZARD_KINDS = 15        # rule: number of hazard kinds
TREASURE_CARDS = 16      # rule: number of treasure cards
ARTIFACTS_ON_PATH = 17   # artifacts revealed in this cave and not taken
ARTIFACT_VALUE_ON_PATH = 18  # points a lone leaver would get for them now
ARTIFACTS_TAKEN = 19     # artifacts taken so far in the game, by anyone
DECK_ARTIFACTS = 20      # artifact cards left in the deck
OWN_ARTIFACT_POINTS = 21
DANGER_HAZARDS = 22      # hazard cards left in the deck whose kind would end the round now
DECISIONS = 23           # decisions already taken by this seat in this cave
PLAYERS = 24
ROUND = 25               # 0-based
ROUNDS = 26

HAZARD_SEEN = 32                         # [kind]: cards of that kind revealed in this cave
HAZARD_IN_DECK = HAZARD_SEEN + MAX_HAZARD_KINDS   # [kind]: cards of that kind left in the deck
SEAT_IN_CAVE = HAZARD_IN_DECK + MAX_HAZARD_KINDS  # [seat]: 1 if still in the cave
SEAT_CHEST = SEAT_IN_CAVE + MAX_PLAYERS           # [seat]: chest, or -1 if hidden
SEAT_CARRIED = SEAT_CHEST + MAX_PLAYERS           # [seat]: carried gems (public)
TREASURE_VALUE = SEAT_CARRIED + MAX_PLAYERS       # [card]: gem value of treasure card i
TREASURE_IN_DECK = TREASURE_VALUE + MAX_TREASURES  # [card]: 1 if treasure card i is in the deck
LEGAL = TREASURE_IN_DECK + MAX_TREASURES         # the legal list: [CONTINUE, LEAVE]
SIZE = LEGAL + 2
# the deciding seat's own view: what an engine writes for it before calling its strategy
OWN_VIEW = frozenset((SEAT, CARRIED, CHEST, OWN_ARTIFACT_POINTS,
                      *range(SEAT_CHEST, SEAT_CHEST + MAX_PLAYERS)))

STAY_OR_LEAVE = 0        # the decision kind

NAMES = {v: k for k, v in dict(globals()).items()
         if k.isupper() and isinstance(v, int)
         and k not in ("CONTINUE", "LEAVE", "SIZE", "STAY_OR_LEAVE")
         and not k.startswith("MAX")}
