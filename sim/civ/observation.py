"""What a CIV strategy sees: one int64 vector, its layout, and the action encoding.

A strategy is `decide(obs, params, rng) -> index` (sim/core/strategy_api.py): the INDEX of its
choice in the legal list, called only with two or more legal actions. The vector starts with the
common header (sim/core/observation.py) and holds only what the deciding seat may see; the
legal list is the last block. Cards of one Domain are identical (§1.2), so cards are counted per
Domain and an action names a Domain, never a card.

Why a chain of decisions
------------------------
A turn is the mandatory play, then any sequence of effects (each with its own cards and targets:
Purge's two cards, Monopoly's two discards and two plays, Inquisition's give-back of up to 7
cards, ...), then the draw. Counted jointly that is tens of thousands of actions, so a turn is a
chain of small decisions, and the turn in progress is published (T_* below):

  D_DRAFT_KEEP    draft: the card to keep from the packet          legal: A_CARD(d)
  D_DRAFT_TAKE    draft: the centre card to put into play          legal: A_CARD(d)
  D_PLAY          the mandatory play (skipped if nothing playable) legal: A_CARD(d)
  D_EFFECT        the next effect, or stop                         legal: A_STOP, A_PERM(d, lvl),
                                                                          A_COPY(d, lvl), A_SAC(d)
  D_DISCARD_HAND  a card of the hand to discard (Assassination, Purge, Technological Leap)
  D_DISCARD_PLAY  a card of the play area to discard (Development, Monopoly)
  D_EXTRA_PLAY    a card of the hand to play (Development, Monopoly, Experiment, Research)
  D_RETURN        a card of the play area back to the hand (Experiment, Research)
  D_ATTACK        Attack: the Domain                               legal: A_CARD(d)
  D_INQUISITION   Inquisition: the player whose hand is taken      legal: A_SEAT(s)
  D_GIVE          Inquisition: a card to give back                 legal: A_CARD(d)
  D_EMBARGO       Embargo: the player and Domain                   legal: A_TARGET(d, s)
  D_TAKE_DISCARD  a card of the discard pile to the hand (Oligarchy, Republic, the Leap flag)
  D_DEMOCRACY     Democracy: the player and Domain                 legal: A_TARGET(d, s)

Fixed orders (so a search does not see one position through k! paths): the cards of one
effect step (Purge's two, Monopoly's, Research's, Republic's, the Inquisition give-back, the
Leap's discards) are picked one at a time in non-decreasing Domain order (T_MIN): a pick is
legal only if the rest of the step can still be completed from Domains at or above it. Religion's
permanent effects are passive (the hand size at the draw), never a decision. A decision with one
legal action is forced (the strategy is not called).

Legal-list order (both engines produce exactly this order):
  D_EFFECT   A_STOP, then by Domain ascending: A_PERM(d, 1), A_PERM(d, 2), A_COPY(d, 1),
             A_COPY(d, 2), A_SAC(d)
  targets    by seat ascending (other seats), then Domain ascending
  cards      Domain ascending

When an effect is offered (the rules' conditions, plus "its first step can be done"):
  permanent (Military, Economy, Science, Utopia): the Domain's slot unused this turn, the level's
    threshold met now; Assassination/Purge 1/2 cards in hand; Development 1 card in play and 1
    playable; Monopoly 2 in play and 2 playable (1 with level2_short); Experiment/Research 1/2 in
    play; Oligarchy/Republic 1/2 in the discard pile.
  copy (Inspiration): the seat holds the Art coin now, fewer than copies_per_turn copies this
    turn, the slot unused (copy_uses_slot), another seat has that level, the own level is lower,
    and the effect's first step can be done (Religion: a higher hand size than copied so far).
  sacrifice: the slot unused, a card of the Domain in play; Attack a Domain to choose; Inquisition
    another seat with a card in hand; Embargo and Democracy a target.
With embargo_blocks_effects an embargoed Domain offers no effect. Extra plays are as many as the
effect says, or fewer when the hand has fewer playable cards (Experiment, Research; Development
and Monopoly as above).

Layout (offsets are the constants below)
  scalars   PLAYERS, FIRST (the first player), TURN (turns played), DECK_LEFT, FINAL (1: the deck
            ran out, this is the final round), COIN (the Art coin's holder or -1), LEVEL1, LEVEL2,
            HEGEMONY (the base), HAND_LIMIT (the deciding seat's hand size now), TEAMS, TEAMMATE
  turn      T_PLAYED (Domain of the mandatory play, -1 none or not yet), T_PERM and T_SAC (bit d:
            the Domain's permanent / sacrifice used this turn), T_COPIES, T_EFFECT (the effect in
            progress, an action, -1 none), T_LEFT (cards still to pick in its step), T_MIN (the
            lowest Domain the next pick may take), T_TARGET (the seat it targets, -1), T_COPY_HAND
            (the hand size a copied Religion effect gives this turn, 0 none)
  OWN_HAND [d]   the deciding seat's hand, per Domain
  DISCARD [d]    the face-up discard pile, per Domain
  DRAFT [d]      the draft packet in the deciding seat's hands, or the centre cards (D_DRAFT_TAKE)
  [seat]    block SEATS + SEAT_BLOCK * seat (absolute seats; past PLAYERS all 0): +S_HAND_N,
            +S_PLAY + d (cards in play), +S_EMBARGO + d (Economy cards lying on Domain d),
            +S_DEMOCRACY + d (Utopia cards under Domain d), +S_COUNT + d (what counts for
            thresholds, Hegemony and majorities), +S_KNOWN + d (cards of Domain d the deciding
            seat knows to be in that seat's hand: below; its own block: its hand)
  LEGAL     the N_LEGAL legal actions (LEGAL_AT = LEGAL); entries past them are undefined

Known cards in the other hands (S_KNOWN)
----------------------------------------
Hands and the deck are hidden, draws are hidden; play areas, the discard pile and every card
moving between them and a hand are public (the card shows its Domain). From those moves, and
from what it gave and took itself by Inquisition, a seat o keeps for every other seat q and
Domain d a count known[o][q][d]: a lower bound of q's d cards in hand (exact bookkeeping, never
a guess; both engines keep it for every pair of seats):
  - a d card leaves q's hand face up (the play, an extra play, a discard from the hand: the
    Domain shows): known[o][q][d] drops by one if it is above 0 (the known card, or one like it);
  - a d card enters q's hand face up (returned from play by Experiment / Research, taken from the
    discard pile): known[o][q][d] rises by one;
  - draws and the draft's keeps change nothing (a hidden card in, the bound holds);
  - Inquisition, p takes q's hand: p knows q's hand is empty (known[p][q] = 0); q knows p now
    holds q's former hand (known[q][p][d] += q's hand[d]); a third seat o knows its known cards
    of q moved to p (known[o][p] += known[o][q], known[o][q] = 0);
  - Inquisition, p gives a d card back to q (face down, one pick at a time): p knows it
    (known[p][q][d] += 1, so after the give-back p knows q's whole hand); q sees it leave p's
    hand (known[q][p][d] drops by one if above 0); a third seat sees only that a card left p's
    hand, so every known[o][p][x] drops by one if above 0 (after k cards: the tight bound
    max(0, known - k) Domain by Domain).
Readings: the Age on the backs of the cards in a hand is not tracked (the engines count hands per
Domain); the draft's passes are not tracked either (a seat saw the packets it passed, but only
at 2 players does one come back whole), so the bound is 0 after the draft. The bound is only
what was seen: another seat's cards of Domain d in hand are at least known[o][q][d], and the
rest of its hand is any unseen cards.
"""
from numba.extending import register_jitable

from ..core.observation import DECISION, LEGAL_AT, N_LEGAL, SEAT  # noqa: F401  (the common header)
from .cards import DOMAIN_TITLES, N_DOMAINS
from .rules import MAX_PLAYERS

# ---------------------------------------------------------------- decisions and actions
(D_DRAFT_KEEP, D_DRAFT_TAKE, D_PLAY, D_EFFECT, D_DISCARD_HAND, D_DISCARD_PLAY, D_EXTRA_PLAY,
 D_RETURN, D_ATTACK, D_INQUISITION, D_GIVE, D_EMBARGO, D_TAKE_DISCARD, D_DEMOCRACY) = range(14)
DECISION_NAMES = ("draft-keep", "draft-take", "play", "effect", "discard-hand", "discard-play",
                  "extra-play", "return", "attack", "inquisition", "give", "embargo", "take-discard",
                  "democracy")
A_CARD, A_STOP, A_PERM, A_SAC, A_COPY, A_SEAT, A_TARGET = range(7)
ACTION_NAMES = ("card", "stop", "permanent", "sacrifice", "copy", "seat", "target")

# the effects by Domain (Religion's permanent effects are passive, Art's is the copy)
PERMANENT_NAMES = (("Assassination", "Purge"), ("Holy Book", "Divine Right"),
                   ("Development", "Monopoly"), ("Experiment", "Research"), ("", ""),
                   ("Oligarchy", "Republic"))
SACRIFICE_NAMES = ("Attack", "Inquisition", "Embargo", "Technological Leap", "", "Democracy")

# ---------------------------------------------------------------- the vector
PLAYERS = 4
FIRST = 5
TURN = 6
DECK_LEFT = 7
FINAL = 8
COIN = 9
LEVEL1 = 10
LEVEL2 = 11
HEGEMONY = 12
HAND_LIMIT = 13
TEAMS = 14
TEAMMATE = 15
T_PLAYED = 16
T_PERM = 17
T_SAC = 18
T_COPIES = 19
T_EFFECT = 20
T_LEFT = 21
T_MIN = 22
T_TARGET = 23
T_COPY_HAND = 24
OWN_HAND = 26
DISCARD = OWN_HAND + N_DOMAINS
DRAFT = DISCARD + N_DOMAINS
SEATS = DRAFT + N_DOMAINS + 2
S_HAND_N = 0
S_PLAY = 1
S_EMBARGO = S_PLAY + N_DOMAINS
S_DEMOCRACY = S_EMBARGO + N_DOMAINS
S_COUNT = S_DEMOCRACY + N_DOMAINS
S_KNOWN = S_COUNT + N_DOMAINS
SEAT_BLOCK = S_KNOWN + N_DOMAINS + 1
LEGAL = SEATS + SEAT_BLOCK * MAX_PLAYERS
MAX_LEGAL = 32            # D_EFFECT: 1 + 4 x 2 permanents + 5 x 2 copies + 5 sacrifices = 24
SIZE = LEGAL + MAX_LEGAL


# ---------------------------------------------------------------- action encoding
# One int64: bits 0-3 kind | bits 4-7 Domain + 1 | bits 8-11 arg + 1 (a level or a seat); a field
# holding 0 means "none" and decodes to -1. Plain Python for the reference engine, compiled where
# compiled code calls them (register_jitable).
@register_jitable
def encode(kind, domain=-1, arg=-1):
    return kind | ((domain + 1) << 4) | ((arg + 1) << 8)


@register_jitable
def action_kind(action):
    return action & 15


@register_jitable
def action_domain(action):
    return ((action >> 4) & 15) - 1


@register_jitable
def action_arg(action):
    return ((action >> 8) & 15) - 1


STOP = encode(A_STOP)


def effect_name(action) -> str:
    """The rules' name of an effect action (A_PERM, A_COPY, A_SAC)."""
    kind, d, level = action_kind(action), action_domain(action), action_arg(action)
    if kind == A_SAC:
        return SACRIFICE_NAMES[d]
    return PERMANENT_NAMES[d][level - 1]


def action_text(action) -> str:
    kind, d, arg = action_kind(action), action_domain(action), action_arg(action)
    if kind == A_STOP:
        return "stop"
    if kind == A_CARD:
        return DOMAIN_TITLES[d]
    if kind == A_SEAT:
        return f"seat {arg}"
    if kind == A_TARGET:
        return f"seat {arg} {DOMAIN_TITLES[d]}"
    if kind == A_COPY:
        return f"copy {effect_name(action)}"
    return effect_name(action)
