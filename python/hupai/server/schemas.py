"""Request and response models of the scoring service (they generate the OpenAPI document).

The models only check the JSON shape; every rule decision (is this a hand, which fans, which
waits) is made by the Rust core through the public ``hupai`` API.
"""

from __future__ import annotations

from typing import Any, Literal

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, StringConstraints

#: Most items accepted by ``POST /v1/score/batch`` (more → 413).
MAX_BATCH = 256
#: Largest request body in bytes (more → 413).
MAX_BODY = 256 * 1024
#: Longest hand string accepted anywhere.
MAX_HAND_CHARS = 200

SwitchValue = bool | int | str
ShapeName = Literal["standard", "seven_pairs", "seven_pairs_quads", "thirteen_orphans", "honors_knitted", "knitted_straight", "all"]
HandText = Annotated[str, StringConstraints(max_length=MAX_HAND_CHARS)]


class Meld(BaseModel):
    """A declared meld: ``type`` (chow/pung/kong for MCR and 四川; chi/peng/… for 字牌) and its tiles."""

    model_config = ConfigDict(extra="allow", strict=True)
    type: str = Field(max_length=32)
    tiles: list[str] = Field(max_length=8)


class HandIn(BaseModel):
    """A hand in the case schema: standing tiles, declared melds and the winning tile."""

    model_config = ConfigDict(extra="allow", strict=True)
    concealed: list[str] = Field(max_length=40)
    melds: list[Meld] = Field(default_factory=list, max_length=8)
    win_tile: str | None = Field(default=None, max_length=8)


class ScoreRequest(BaseModel):
    """One win to score.

    ``hand`` is either a string in any notation hupai reads (``"[EEE,1]123m456p78s99s+9s"``: bracket
    melds, ``+`` winning tile; for 字牌 the card codes) or a ``HandIn`` object. ``situation`` holds the
    preset's flags (MCR: ``self_drawn``, ``fourth_tile``, ``about_kong``, ``wall_last``,
    ``seat_wind``, ``prevalent_wind``, ``flowers``; 四川: ``win_type``, ``dealer``, ``void_suit``, …;
    字牌: ``win_type``, ``seat``, ``discarder``, …). ``options`` are the preset's switches.
    """

    model_config = ConfigDict(extra="forbid", strict=True)
    variant: str = Field(default="mcr", max_length=64, examples=["mcr"])
    options: dict[str, SwitchValue] = Field(default_factory=dict, max_length=64)
    hand: HandText | HandIn = Field(examples=["[EEE,1]123m456p78s99s+9s"])
    situation: dict[str, Any] = Field(default_factory=dict, max_length=64)
    id: StrictStr | StrictInt | None = Field(default=None, description="echoed in the result (a string or an integer)")


class BatchRequest(BaseModel):
    """Up to ``MAX_BATCH`` items; each is scored independently (a bad item yields an error object)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    items: list[dict[str, Any]] = Field(description=f"ScoreRequest objects, at most {MAX_BATCH}")


class HandQuery(BaseModel):
    """A hand for waits / shanten: any notation string, or a list of tiles."""

    model_config = ConfigDict(extra="forbid", strict=True)
    hand: HandText | list[Annotated[str, StringConstraints(max_length=8)]] = Field(examples=["1112345678999m"])
    variant: str = Field(default="mcr", max_length=64, description="preset whose rules apply")
    shapes: list[ShapeName] | None = Field(default=None, min_length=1, max_length=8, description="shape names")
    wildcards: int = Field(default=0, ge=0, le=8)
    melds: list[Annotated[str, StringConstraints(max_length=40)]] | None = Field(
        default=None, max_length=8, description="字牌 only: declared groups such as 'peng:x5x5x5' (tile games: bracket notation in hand)"
    )


class ParseRequest(BaseModel):
    """A hand to read (``POST /v1/parse``): ``hand`` in any notation the core reads, and optionally a
    ``situation`` to split into the calculator form's keys and the others."""

    model_config = ConfigDict(extra="forbid")
    hand: HandText = Field(examples=["[EEE,1]123m456p78s99s+9s"])
    variant: str = Field(default="mcr", max_length=64, description="preset whose pieces the hand holds")
    situation: dict[str, Any] | None = Field(default=None, max_length=64)


class ParsedMeld(BaseModel):
    type: str
    tiles: list[str]
    concealed: bool
    offer: int | None = None


class ParseResult(BaseModel):
    """The parts of a hand as the core read them: standing ``concealed`` tiles, declared ``melds``
    (``offer``: 1/2/3 = claimed from left/across/right, 0 = concealed), ``win_tile`` (after ``+``,
    or null); ``complete`` when the core read it as a whole hand (else the pieces of a partial one).
    ``form``: the situation keys the calculator form shows, as the core reads them (``win_type``
    folds ``self_drawn`` / ``about_kong``); ``more``: every other situation key."""

    concealed: list[str]
    melds: list[ParsedMeld]
    win_tile: str | None
    complete: bool
    form: dict[str, Any]
    more: dict[str, Any]


class AnalyseRequest(BaseModel):
    """A card game's hand to analyse (``POST /v1/analyse``), every field in the game's notation.

    - 斗地主 (``doudizhu_qq``, ``doudizhu_contest``): ``hand`` the cards held (``3344556677xX``);
      ``play`` a selection (its card type, whether it beats ``against``); ``against`` the move on
      the table (the hand's legal answers to it; without it, the hand's leads). Always: the best
      split of the hand.
    - 够级 (``gouji``): ``play`` a play to check (legal from the hand, 憋3; beats ``against``;
      burns it); ``against`` the play on the table (够级牌? can the hand burn it? its answers and
      burning plays).
    - 顶牛 (``dingniu``): ``hand`` tiles (``"16 56 44"``); ``against`` the line's open ends
      (``"[1|5]"``: its placements, else the 扣 choices; without it, the openings); ``play`` a move
      (``16:R``, ``kou 44``) to check.

    ``options`` are the preset's switches (``hupai.Variant(variant, **options)``)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    variant: str = Field(max_length=64, examples=["doudizhu_qq"], description="a card preset of /v1/variants")
    hand: HandText = Field(examples=["3344556677xX"], description="the pieces held (may be empty)")
    play: HandText | None = Field(default=None, examples=["55"], description="a selection / play / move to check")
    against: HandText | None = Field(default=None, examples=["44"], description="the move on the table (顶牛: the open ends [L|R])")
    options: dict[str, SwitchValue] = Field(default_factory=dict, max_length=64)


class AnalysedSelection(BaseModel):
    """A hand, play or move as the core read it: canonical ``text``, its ``cards`` one per piece,
    the Chinese ``zh`` and what it reads as (``readings``: labels, Chinese then English)."""

    model_config = ConfigDict(extra="forbid")
    text: str
    cards: list[str]
    zh: str
    readings: list[str]


class AnalysedCheck(BaseModel):
    """A yes/no fact: stable ``id`` (``is_move``, ``in_hand``, ``beats``, ``legal_from_hand``,
    ``against_is_gouji``, ``can_burn``, ``play_burns``, ``legal``, ``must_lay``), ``ok`` and the
    ``label`` people read."""

    model_config = ConfigDict(extra="forbid")
    id: str
    ok: bool
    label: str


class AnalysedItem(BaseModel):
    """One move: ``text`` as the table takes it, the ``cards`` it uses, a ``label``."""

    model_config = ConfigDict(extra="forbid")
    text: str
    cards: list[str]
    label: str


class AnalysedList(BaseModel):
    """A list of moves (``id``: ``answers``, ``leads``, ``split``, ``burns``, ``placements``,
    ``kou``, ``openings``); ``total`` counts them all, ``items`` holds at most 300."""

    model_config = ConfigDict(extra="forbid")
    id: str
    title: str
    total: int
    truncated: bool
    items: list[AnalysedItem]


class PieceName(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    zh: str


class DecisionWord(BaseModel):
    """The word of a table decision whose ``value`` says what it is (够级 ``show`` 2 → 亮牌)."""

    model_config = ConfigDict(extra="forbid")
    kind: str
    value: int
    zh: str


class AnalyseResult(BaseModel):
    """The analyser's answer (``hupai.analyse``): the inputs as read, ``checks``, ``lists``,
    every piece of the game with its Chinese name (``pieces``) and the words of the table's
    decisions by action kind and value (``decisions``)."""

    model_config = ConfigDict(extra="forbid")
    variant: str
    hand: AnalysedSelection
    play: AnalysedSelection | None
    against: AnalysedSelection | None
    checks: list[AnalysedCheck]
    lists: list[AnalysedList]
    pieces: list[PieceName]
    decisions: list[DecisionWord]


class ErrorBody(BaseModel):
    """Every 4xx answer: ``error`` (exception name), ``field`` (JSON path of the bad input),
    ``message`` (what is wrong)."""

    error: str
    field: str
    message: str


class FanOut(BaseModel):
    model_config = ConfigDict(extra="allow")


class FanResult(BaseModel):
    """One counted fan / pattern: ``value`` per occurrence in the score's unit (the factor of a
    ``mul`` pattern), ``op`` how it combines (``add``, ``mul``, ``pow2``, ``base``,
    ``fixed_limit``), ``count`` how many times it counts."""

    model_config = ConfigDict(extra="forbid")
    count: int
    en: str
    id: str
    op: str
    value: int
    zh: str


class PaymentResult(BaseModel):
    """``payer`` pays ``payee`` ``amount`` (seats ``0..players`` in turn order)."""

    model_config = ConfigDict(extra="forbid")
    amount: int
    payee: int
    payer: int


class ScoreResult(BaseModel):
    """The ``Score`` of any preset (``hupai.Score.to_dict()``), the same keys for every preset:
    the counted ``fans``, ``total`` (capped) and ``raw_total`` in ``unit``, ``meets_minimum``,
    ``per_payer``, ``payments`` (this win as the only event of a hand) and ``net`` per seat, the
    ``decomposition`` used (``form``, ``sets``, ``pair``, ``pairs``, ``knitted``, ``wildcards``),
    the preset's ``extras`` (``docs/presets.md``), ``variant``; ``id`` echoes the request's."""

    model_config = ConfigDict(extra="forbid")
    decomposition: dict[str, Any] | None
    extras: dict[str, Any]
    fans: list[FanResult]
    meets_minimum: bool
    net: list[int]
    payments: list[PaymentResult]
    per_payer: int
    raw_total: int
    total: int
    unit: Literal["fan", "multiplier", "point", "huxi"]
    variant: str
    id: str | int | None = None


class BatchResult(BaseModel):
    results: list[dict[str, Any]]


class WaitsResult(BaseModel):
    """``waits`` (empty unless the hand is ready); ``shanten`` (null for 字牌, which has none)."""

    hand: str
    waits: list[str]
    shanten: int | None


class ShantenResult(BaseModel):
    hand: str
    shanten: int
    forms: dict[str, int]


class Health(BaseModel):
    status: Literal["ok"]
    version: str


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "malformed JSON"},
    413: {"model": ErrorBody, "description": "body or batch too large"},
    422: {"model": ErrorBody, "description": "invalid input (names the field)"},
}
