"""The Medina engine: position, legal-placement generator, turns, tiles, colour retirement.

`Game.legal_masks()` is the single source of truth: a placement is legal iff its cell is set in the
mask of its piece. Validation (`Game.play`) and simulation both draw from it; `explain` only puts
a failed check into words. Every edition difference comes from the `Rules` object.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field

from .board import Geometry, bits, geometry_for, lowest_cell

NEUTRAL = -1  # owner of a palace under a neutral roof
NEW_PALACE = "new palace"  # board_mask key: cells where a building would start a new palace
PIECES_FIXED = ("roof", "neutral", "stable", "merchant", "wall")
SUPPLY_KEY = {"roof": "roofs", "neutral": "neutral_roofs", "stable": "stables",
              "merchant": "merchants", "wall": "walls"}


class IllegalPlacement(Exception):
    """A placement that is not among the legal ones; `code` names the rule broken."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


class _MaskCache(dict):
    """piece -> board mask of a game, computed on first lookup. It refers to its game weakly: no
    reference cycle, so a dropped game is freed at once rather than by the garbage collector."""

    def __init__(self, game: Game):
        super().__init__()
        self.game = weakref.ref(game)

    def __missing__(self, piece: str) -> int:
        cells = self[piece] = self.game()._compute_mask(piece)
        return cells


@dataclass(eq=False, slots=True)
class Palace:
    id: int
    colour: str
    buildings: int = 0
    stables: int = 0
    owner: int | None = None  # player index, NEUTRAL, or None while unroofed
    roof: int | None = None  # the roofed building cell
    claim_order: int | None = None
    building_orth: int = 0  # cells orthogonally next to its buildings
    reach: int = 0  # cells within king distance 1 of its buildings and stables
    connected: set = field(default_factory=set)  # (tower, axis) arms it has connected to

    @property
    def pieces(self) -> int:
        return self.buildings | self.stables

    @property
    def size(self) -> int:
        return self.buildings.bit_count() + self.stables.bit_count()


@dataclass(slots=True)
class Event:
    """Something the rules made happen: a claim, a tile moving, a retirement, the game's end."""

    kind: str  # claim, palace-tile, tower-tile, tower-merchants, tea, retire, forced-roof, pass, game-end
    text: str
    player: str | None = None


class Game:
    """A game in progress. Seats are indices into `players`; the first player starts."""

    def __init__(self, rules, players: list[str], merchant: int, well: int | None = None,
                 supply: dict[str, dict[str, int]] | None = None):
        """`supply`: player -> {piece: count} where a player starts otherwise than the ruleset says."""
        self.rules = rules
        self.geo: Geometry = geometry_for(rules)
        self.players = list(players)
        self.colours = rules.colour_names
        self.piece_order = (*self.colours, *PIECES_FIXED)
        self.cheap_first_order = self.piece_order[::-1]  # walls are the cheapest mask to compute
        triggers = rules.retirement
        checks = {piece: (piece == "roof" and "all_players_own" in triggers,  # may complete all_players_own
                          piece != "wall" and "no_building_fits" in triggers)  # may leave no_building_fits
                  for piece in self.piece_order}
        self.retirement_checks = {piece: c for piece, c in checks.items() if any(c)}  # pieces that may retire
        self.second_roof_rule = rules.forced_roof == "second_placement_only_player_who_can_place"
        geo = self.geo
        s = rules.supply
        self.supply = [{**{c: s["per_colour"] for c in self.colours},
                        **{piece: s[SUPPLY_KEY[piece]] for piece in PIECES_FIXED}} for _ in players]
        for name, counts in (supply or {}).items():
            self.supply[self.players.index(name)].update(counts)
        self.tea = [0] * len(players)
        self.owned: list[set[str]] = [set() for _ in players]
        self.buildings = {c: 0 for c in self.colours}
        self.stables = 0
        self.start_merchant = merchant
        self.merchants = 1 << merchant
        self.walls = 0
        self.well = well
        self.well_zone = geo.king(1 << well) if well is not None else 0
        self.well_bonus_cells = geo.straight_two(well) if well is not None else 0
        self.occupied = self.merchants | (1 << well if well is not None else 0)
        self.roofed_buildings = 0
        self.palaces: list[Palace] = []
        self.palace_at: dict[int, Palace] = {}
        self.open_palace: dict[str, Palace | None] = {c: None for c in self.colours}
        self.reach_once = 0  # cells within reach of at least one palace
        self.reach_twice = 0  # cells within reach of two or more palaces
        self.building_orth = 0
        self.chain_ends = (merchant, merchant)
        self.wall_arm: dict[int, tuple[int, str]] = {}
        self.palace_tile: dict[str, Palace | None] = {c: None for c in self.colours}
        self.tower_tile: dict[int, Palace | None] = {t: None for t in geo.tower_cell}
        self.tower_merchants_left = dict(rules.tower_merchants)
        self.tea_claims = 0
        self.claims = 0
        self.retired: list[str] = []
        self.events: list[Event] = []
        self.placements_made = 0
        self._masks = _MaskCache(self)
        # turn state
        self.turns_started = 0
        self.turn_placed = 0
        self.turn_slots = 0
        self.tea_used = False
        self.forced = False  # this turn must still include one of the player's roofs
        self.to_move: int | None = len(self.players) - 1  # so that the first seat that can place starts
        self._end_turn()

    # --- names ----------------------------------------------------------------------------------
    def owner_name(self, owner: int | None) -> str | None:
        if owner is None:
            return None
        return "neutral" if owner == NEUTRAL else self.players[owner]

    # --- the generator -------------------------------------------------------------------------
    def board_mask(self, piece: str) -> int:
        """Cells where `piece` may legally go, whoever places it (roofs: any unroofed building).
        Computed lazily per piece and cached until a placement changes it (see `_place`)."""
        return self._masks[piece]

    def _compute_mask(self, piece: str) -> int:
        geo = self.geo
        if piece == "wall":
            anchors = self.walls | geo.towers
            return geo.ring & ~self.walls & geo.orth(anchors) & ~geo.at_least_two_neighbours(anchors)
        if piece in ("roof", "neutral"):
            if self.rules.roof_on_blocked_palace:
                return self._all_buildings() & ~self.roofed_buildings
            return self._growing_palaces()
        empty = geo.interior & ~self.occupied
        if piece == "merchant":
            two_plus = geo.at_least_two_neighbours(self.merchants)
            cells = geo.orth(self.live_chain_ends(two_plus)) & empty & ~two_plus
            if not cells:
                cells = empty & ~geo.more_neighbours_than(self.merchants, self.rules.new_chain_max_neighbours)
            return cells
        palace_free = empty & ~self.well_zone
        if piece == NEW_PALACE:
            return palace_free & ~self.reach_once
        if piece == "stable":
            return self.building_orth & palace_free & ~self.reach_twice
        palace = self.open_palace[piece]
        extension = palace.building_orth & palace_free & ~self.reach_twice if palace is not None else 0
        return extension or self._masks[NEW_PALACE]

    def _growing_palaces(self) -> int:
        """The buildings of the unroofed palaces that can still take a building (the others are blocked)."""
        cells = 0
        free = self.geo.interior & ~self.occupied & ~self.well_zone & ~self.reach_twice
        for palace in self.open_palace.values():
            if palace is not None and palace.building_orth & free:
                cells |= palace.buildings
        return cells

    def live_chain_ends(self, two_plus: int | None = None) -> int:
        """The live chain's end cells: its first and last merchant, each while it touches at most one
        merchant (a chain started against an old one stops being an end there once it grows).
        `two_plus`: the cells next to two or more merchants, if the caller has them already."""
        if two_plus is None:
            two_plus = self.geo.at_least_two_neighbours(self.merchants)
        first, last = self.chain_ends
        return ((1 << first) | (1 << last)) & ~two_plus

    def piece_mask(self, seat: int, piece: str) -> int:
        """Cells where `seat` may place `piece` now, ignoring turn restrictions (forced roofs)."""
        if not self.supply[seat][piece]:
            return 0
        cells = self._masks[piece]
        if piece == "roof" and cells and self.owned[seat]:
            for colour in self.owned[seat]:
                cells &= ~self.buildings[colour]
        return cells

    def piece_masks(self, seat: int) -> list[tuple[str, int]]:
        """(piece, cells) for every piece `seat` holds that can legally be placed now."""
        out = []
        for piece in self.piece_order:
            cells = self.piece_mask(seat, piece)
            if cells:
                out.append((piece, cells))
        return out

    def can_place(self, seat: int) -> bool:
        supply, masks = self.supply[seat], self._masks
        for piece in self.cheap_first_order:
            # a roof's cells also depend on the colours the seat owns: only piece_mask knows them
            if supply[piece] and masks[piece] and (piece != "roof" or self.piece_mask(seat, piece)):
                return True
        return False

    def legal_masks(self) -> list[tuple[str, int]]:
        """(piece, cells) legal for the player to move at this point of the turn."""
        if self.to_move is None:
            return []
        masks = self.piece_masks(self.to_move)
        return self._forced_roof_filter(masks) if self.forced else masks

    def _forced_roof_filter(self, masks):
        """Keep only placements that let this turn include one of the player's roofs.

        A roof stays legal after any other placement except a neutral roof on its last target; a
        roof becomes legal after a building of a colour the player does not own yet.
        """
        roof = next((m for piece, m in masks if piece == "roof"), 0)
        if self.turn_placed or self.tea_used or self.turn_slots == 1:
            return [("roof", roof)] if roof else masks
        if not roof:
            owned = self.owned[self.to_move]
            return [(piece, m) for piece, m in masks if piece in self.buildings and piece not in owned]
        out = []
        for piece, cells in masks:
            if piece == "neutral":
                cells = sum(1 << c for c in bits(cells) if roof & ~self.palace_at[c].buildings)
                if not cells:
                    continue
            out.append((piece, cells))
        return out

    def legal_placements(self) -> list[tuple[str, int]]:
        """Every legal (piece, cell) for the player to move, in piece order then cell order."""
        return [(piece, cell) for piece, cells in self.legal_masks() for cell in bits(cells)]

    def is_legal(self, piece: str, cell: int) -> bool:
        if self.to_move is None or piece not in self.supply[self.to_move]:
            return False
        if self.forced:
            return any(p == piece and (m >> cell) & 1 for p, m in self.legal_masks())
        return bool((self.piece_mask(self.to_move, piece) >> cell) & 1)

    def can_tea(self) -> bool:
        """May the player to move discard a tea tile now instead of a placement?"""
        seat = self.to_move
        if seat is None or not self.tea[seat] or self.tea_used or self.turn_slots < 2:
            return False
        if self.turn_placed == 0:
            return self.rules.tea_replaces == "either_placement" and (
                not self.forced or any(p == "roof" for p, _ in self.legal_masks()))
        return self.turn_placed < self.turn_slots and not self.forced

    # --- playing -------------------------------------------------------------------------------
    def play(self, piece: str, cell: int) -> None:
        """Place a piece for the player to move; raises IllegalPlacement if it is not legal."""
        if self.to_move is None:
            raise IllegalPlacement("game-over", "the game has already ended")
        if not self.is_legal(piece, cell):
            from .explain import explain
            raise IllegalPlacement(*explain(self, piece, cell))
        self._place(self.to_move, piece, cell)
        self.turn_placed += 1
        if piece == "roof":
            self.forced = False
        elif self.turn_placed == 1 and self.second_roof_rule and not (
                piece == "neutral" and self.rules.neutral_spares_forced_roof):
            self._force_second_roof()
        if self.turn_placed + self.tea_used >= self.turn_slots or not (
                self.legal_masks() if self.forced else self.can_go_on(self.to_move)):
            self._end_turn()

    def can_go_on(self, seat: int) -> bool:
        """After a placement: has `seat` anything left to do this turn? A piece that fits, or (where
        the ruleset counts it) a tea tile, which must then be used."""
        return self.can_place(seat) or bool(self.rules.tea_keeps_turn_open and self.tea[seat] and not self.tea_used)

    def use_tea(self) -> None:
        if not self.can_tea():
            raise IllegalPlacement("tea-not-allowed", self._tea_refusal())
        seat = self.to_move
        self.tea[seat] -= 1
        self.tea_used = True
        self.events.append(Event("tea", f"{self.players[seat]} uses a tea tile instead of a placement",
                                 self.players[seat]))
        if self.turn_placed:
            self._end_turn()

    def _tea_refusal(self) -> str:
        seat = self.to_move
        if seat is None:
            return "the game has already ended"
        if not self.rules.tea_colour:
            return "this ruleset has no tea tiles"
        if not self.tea[seat]:
            return f"{self.players[seat]} holds no tea tile"
        if self.tea_used:
            return "only one tea tile may be used per turn"
        if not self.turn_placed and self.rules.tea_replaces == "second_placement":
            return "a tea tile may replace only the second placement of a turn"
        if self.turn_slots < 2:
            return "no tea tile in an opening single-placement turn"
        if self.forced:
            return "a roof is due this turn; a tea tile cannot replace it"
        return "a tea tile must replace a placement that could still be made"

    def turn_open(self) -> bool:
        """True while the player to move has begun a turn (placed or used tea) and may go on."""
        return self.to_move is not None and (self.turn_placed > 0 or self.tea_used)

    # --- turn sequence -------------------------------------------------------------------------
    def _start_turn(self, seat: int) -> None:
        self.to_move = seat
        self.turn_placed = 0
        self.tea_used = False
        single = self.turns_started < self.rules.opening_single
        self.turn_slots = 1 if single else self.rules.placements_per_turn
        self.turns_started += 1
        self.forced = self._forced_trigger(seat) and self._roof_reachable(seat)
        if self.forced:
            self._announce_forced_roof()

    def _announce_forced_roof(self) -> None:
        name = self.players[self.to_move]
        self.events.append(Event("forced-roof", f"{name} must place a roof this turn", name))

    def _force_second_roof(self) -> None:
        """After a first piece that was not his roof: the second must be one of the player's roofs
        if one is legal now and no other player can place anything."""
        seat = self.to_move
        if (self.turn_placed + self.tea_used < self.turn_slots and self.piece_mask(seat, "roof")
                and self._others_stuck(seat)):
            self.forced = True
            self._announce_forced_roof()

    def _others_stuck(self, seat: int) -> bool:
        """Can no other player move? (A held tea tile counts as a move where the ruleset says so.)"""
        tea_counts = self.rules.tea_blocks_forced_roof
        for other in range(len(self.players)):
            if other != seat and (self.can_place(other) or (tea_counts and self.tea[other])):
                return False
        return True

    def _roof_reachable(self, seat: int) -> bool:
        """Does some legal turn include one of the player's roofs? (Now, or after a building of a
        colour he does not own yet, which makes a new roof target.)"""
        masks = self.piece_masks(seat)
        if any(piece == "roof" for piece, _ in masks):
            return True
        return (self.turn_slots > 1 and self.supply[seat]["roof"] > 0
                and any(piece in self.buildings and piece not in self.owned[seat] for piece, _ in masks))

    def _forced_trigger(self, seat: int) -> bool:
        rule = self.rules.forced_roof
        if rule == "only_player_who_can_place":
            return self._others_stuck(seat)
        if rule == "only_player_with_pieces":
            return all(not any(self.supply[q].values()) for q in range(len(self.players)) if q != seat)
        if rule == "only_player_with_roofs":
            return self.supply[seat]["roof"] > 0 and all(
                self.supply[q]["roof"] == 0 for q in range(len(self.players)) if q != seat)
        return False

    def _end_turn(self) -> None:
        n = len(self.players)
        seat = self.to_move
        for step in range(1, n + 1):
            nxt = (seat + step) % n
            if self.can_place(nxt):
                self._start_turn(nxt)
                return
            if step < n:
                self.events.append(Event("pass", f"{self.players[nxt]} cannot place anything and is skipped",
                                         self.players[nxt]))
        self.to_move = None
        self.events.append(Event("game-end", "no player can place anything: the game is over"))

    # --- applying a placement ------------------------------------------------------------------
    def _place(self, seat: int, piece: str, cell: int) -> None:
        self.supply[seat][piece] -= 1
        self.placements_made += 1
        if piece in self.buildings:
            self._place_building(piece, cell)
        elif piece in ("roof", "neutral"):
            self._claim(self.palace_at[cell], seat if piece == "roof" else NEUTRAL, cell)
        elif piece == "stable":
            self._place_stable(cell)
        elif piece == "merchant":
            self._place_merchant(cell)
        else:
            self._place_wall(cell)
        # walls and interior pieces never constrain each other: a wall changes the wall mask only,
        # any other piece every mask but the wall's
        masks = self._masks
        if piece == "wall":
            masks.pop("wall", None)
        else:
            wall_mask = masks.get("wall")
            masks.clear()
            if wall_mask is not None:
                masks["wall"] = wall_mask
        if piece in self.retirement_checks:
            self._check_retirement(piece)

    def _grow(self, palace: Palace, cell: int) -> None:
        new_reach = self.geo.king_of[cell] & ~palace.reach
        palace.reach |= new_reach
        self.reach_twice |= self.reach_once & new_reach
        self.reach_once |= new_reach
        self.palace_at[cell] = palace

    def _place_building(self, colour: str, cell: int) -> None:
        bit = 1 << cell
        palace = self.open_palace[colour]
        if palace is None or not palace.building_orth & bit:
            palace = Palace(len(self.palaces), colour)
            self.palaces.append(palace)
            self.open_palace[colour] = palace
        palace.buildings |= bit
        orth = self.geo.orth_of[cell]
        palace.building_orth |= orth
        self.building_orth |= orth
        self.buildings[colour] |= bit
        self.occupied |= bit
        self._grow(palace, cell)

    def _claim(self, palace: Palace, owner: int, cell: int) -> None:
        palace.owner = owner
        palace.roof = cell
        palace.claim_order = self.claims
        self.claims += 1
        self.roofed_buildings |= palace.buildings
        if self.open_palace[palace.colour] is palace:
            self.open_palace[palace.colour] = None
        name = self.owner_name(owner)
        if owner != NEUTRAL:
            self.owned[owner].add(palace.colour)
            self.events.append(Event("claim", f"{name} roofs the {palace.colour} palace at "
                                     f"{self.geo.name(cell)} (size {palace.size})", name))
        else:
            self.events.append(Event("claim", f"a neutral roof closes the {palace.colour} palace at "
                                     f"{self.geo.name(cell)} (size {palace.size})", None))
        self._palace_tile_check(palace)
        self._tea_award(palace)
        self._connect_walls(palace, self.geo.orth(palace.pieces) & self.walls)

    def _place_stable(self, cell: int) -> None:
        bit = 1 << cell
        palace = self.palace_at[lowest_cell(self.geo.orth_of[cell] & self._all_buildings())]
        palace.stables |= bit
        self.stables |= bit
        self.occupied |= bit
        self._grow(palace, cell)
        if palace.owner is not None:
            self._palace_tile_check(palace)
            walls = self.geo.orth_of[cell] & self.walls
            self._connect_walls(palace, self._stable_contact(cell, walls))
            palace.connected |= {self.wall_arm[wall] for wall in bits(walls)}  # every wall it touches

    def _stable_contact(self, cell: int, walls: int) -> int:
        """The walls a new stable next to `walls` connects through (`towers.stable_contact`)."""
        if self.rules.stable_contact == "every_wall" or walls & (walls - 1) == 0:
            return walls
        width = self.geo.width
        return next(1 << (cell + step) for step in (width, -1, -width, 1) if walls >> (cell + step) & 1)

    def _all_buildings(self) -> int:
        total = 0
        for mask in self.buildings.values():
            total |= mask
        return total

    def _place_merchant(self, cell: int) -> None:
        bit = 1 << cell
        first, last = self.chain_ends
        ends = self.live_chain_ends()  # the generator's ends: a merchant next to one extends the chain
        if self.geo.orth_of[cell] & ends and not self.geo.orth_of[cell] & self.merchants & ~ends:
            if first == last:
                self.chain_ends = (first, cell)
            elif self.geo.orth_of[cell] & (1 << first):
                self.chain_ends = (cell, last)
            else:
                self.chain_ends = (first, cell)
        else:
            self.chain_ends = (cell, cell)
        self.merchants |= bit
        self.occupied |= bit

    def _place_wall(self, cell: int) -> None:
        geo = self.geo
        anchor = lowest_cell(geo.orth_of[cell] & (self.walls | geo.towers))
        if anchor in geo.tower_of_cell:
            axis = "h" if abs(anchor - cell) == 1 else "v"
            arm = (geo.tower_of_cell[anchor], axis)
        else:
            arm = self.wall_arm[anchor]
        self.wall_arm[cell] = arm
        self.walls |= 1 << cell
        palace = self.palace_at.get(geo.inner_of[cell])
        if palace is not None and palace.owner is not None:
            self._connect(palace, arm[0], {arm})

    # --- tiles ---------------------------------------------------------------------------------
    def _palace_tile_check(self, palace: Palace) -> None:
        holder = self.palace_tile[palace.colour]
        if holder is palace or (holder is not None and palace.size <= holder.size):
            return
        self.palace_tile[palace.colour] = palace
        where = (f"a neutral palace (size {palace.size}): it stays on the board" if palace.owner == NEUTRAL
                 else f"{self.players[palace.owner]} (palace size {palace.size})")
        self.events.append(Event("palace-tile", f"the {palace.colour} palace tile goes to {where}",
                                 self.owner_name(palace.owner)))

    def _tea_award(self, palace: Palace) -> None:
        if palace.colour != self.rules.tea_colour:
            return
        awards = self.rules.tea_awards
        award = awards[self.tea_claims] if self.tea_claims < len(awards) else 0
        self.tea_claims += 1
        if not award:
            return
        tiles = f"{award} tea tile{'s' if award != 1 else ''}"
        if palace.owner == NEUTRAL:
            leave = "leaves" if award == 1 else "leave"
            self.events.append(Event("tea", f"{tiles} for the neutral claim {leave} the game"))
        else:
            self.tea[palace.owner] += award
            name = self.players[palace.owner]
            self.events.append(Event("tea", f"{name} takes {tiles}", name))

    def _connect_walls(self, palace: Palace, walls: int) -> None:
        arms_by_tower: dict[int, set] = {}
        for wall in bits(walls):
            arm = self.wall_arm[wall]
            arms_by_tower.setdefault(arm[0], set()).add(arm)
        for tower in sorted(arms_by_tower):
            self._connect(palace, tower, arms_by_tower[tower])

    def _connect(self, palace: Palace, tower: int, arms: set) -> None:
        policy = self.rules.tower_reconnect
        if policy == "once_per_palace_tower" and any(a[0] == tower for a in palace.connected):
            return
        if policy == "once_per_palace_arm" and arms <= palace.connected:
            return
        palace.connected |= arms
        previous = self.tower_tile[tower]
        self.tower_tile[tower] = palace
        if previous is None or previous.owner != palace.owner:
            at = f"{palace.colour} palace at {self.geo.name(palace.roof)}"
            where = (f"the neutral {at}: it stays on the board" if palace.owner == NEUTRAL
                     else f"{self.players[palace.owner]} ({at})")
            self.events.append(Event("tower-tile", f"tower tile {tower} goes to {where}",
                                     self.owner_name(palace.owner)))
        waiting = self.tower_merchants_left.pop(tower, 0)
        if waiting:
            merchants = "merchant" if waiting == 1 else f"{waiting} merchants"
            if palace.owner == NEUTRAL:
                leave = "leaves" if waiting == 1 else "leave"
                self.events.append(Event("tower-merchants", f"the {merchants} of tower {tower} {leave} the game "
                                         "(neutral first holder)"))
            else:
                self.supply[palace.owner]["merchant"] += waiting
                name = self.players[palace.owner]
                self.events.append(Event("tower-merchants", f"{name} takes the {merchants} of tower {tower}",
                                         name))

    # --- colour retirement ---------------------------------------------------------------------
    def _check_retirement(self, piece: str) -> None:
        """After a placement: a roof can complete `all_players_own`; anything placed inside the city
        (a roof too: it closes the palace that could still grow) can leave `no_building_fits`."""
        check_owners, check_room = self.retirement_checks[piece]
        owned_by_all = set.intersection(*self.owned) if check_owners else set()
        for colour in self.colours:
            if colour in self.retired:
                continue
            everyone = colour in owned_by_all
            no_room = check_room and not self.board_mask(colour)
            if everyone or no_room:
                self.retired.append(colour)
                for supply in self.supply:
                    supply[colour] = 0
                why = "every player owns a palace of it" if everyone else "no building of it fits anywhere"
                self.events.append(Event("retire", f"{colour} retires ({why}); remaining {colour} "
                                         "buildings leave the game"))

    # --- results -------------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.to_move is None
