"""Dream Odyssey data: stack sizes, landscapes, encounter places, court people, powers.

The landscape, place and person tables are facts printed in the rulebook's "Unfolding
Tale" section (RULINGS.md allows data tables as they are).  The stack sizes are the
*tunable* table of RULINGS.md section 6: change them here and nowhere else.  The power
titles are the printed ones; the one-line summaries and timings are the project's reading
(notes.md in this folder says why each was read that way).
"""

from __future__ import annotations

# --- RULINGS 6 (tunable): how many Minors each space hosts, dealt at set-up ----------------
STACK_SIZES: dict[str, int] = {
    "foundation": 2, "victory": 2, "splendour": 2,
    "spirit": 3, "mercy": 3, "severity": 3,
    "knowledge": 3, "wisdom": 3, "understanding": 3,
    "sun": 2, "moon": 2,
    "crown": 4,
}

WOUND_FIELDS = 4  # the fourth wound ends the game
OPENING_HAND = 3  # pip cards in hand at set-up
WHEEL_MINIMUM = 3  # Wheel of Fortune draws on until the hand holds this many

# What each court card adds to the pip it augments: ("add", n) or ("times", n).
AUGMENT: dict[str, tuple[str, int]] = {
    "P": ("add", 2), "N": ("add", 3), "Q": ("add", 4), "K": ("times", 2),
}

WORLD_TYPES = ("Forest", "Wetlands", "City", "Waste")

# The Crown Major decides the world: (landscape, world type).
LANDSCAPES: dict[str, tuple[str, str]] = {
    "M0": ("Desert of mirages", "Waste"),
    "M1": ("City of tricksters", "City"),
    "M2": ("Midnight forest", "Forest"),
    "M3": ("Flooded cornfields", "Wetlands"),
    "M4": ("Red wastes", "Waste"),
    "M5": ("City of scholars", "City"),
    "M6": ("Blooming forest", "Forest"),
    "M7": ("Burning desert", "Waste"),
    "M8": ("Ruthless woods", "Forest"),
    "M9": ("Craggy bog", "Wetlands"),
    "M10": ("Sunlit jungle", "Forest"),
    "M11": ("Austere city", "City"),
    "M12": ("Dark forest", "Forest"),
    "M13": ("Plague town", "City"),
    "M14": ("Verdant fens", "Wetlands"),
    "M15": ("Screaming underworld", "Waste"),
    "M16": ("Besieged city", "City"),
    "M17": ("Starlit desert", "Waste"),
    "M18": ("Shadowed city", "City"),
    "M19": ("Blooming plains", "Waste"),
    "M20": ("Endless, still water", "Wetlands"),
    "M21": ("Riverlands", "Wetlands"),
}

# The place a Sefira encounter happens at: hosted Major -> world type -> place.
_PLACE_ROWS: dict[str, tuple[str, str, str, str]] = {
    # Forest, Wetlands, City, Waste
    "M0": ("Lost adventurer's camp", "Explorer's camp", "Explorer's guild", "Explorer's camp"),
    "M1": ("Sorcerer's tower", "Sorcerer's tower", "Sorcerer's tower", "Sorcerer's tower"),
    "M2": ("Sacred grove", "Sunken shrine", "Seer's temple", "Seer's shrine"),
    "M3": ("Empress's falconry lodge", "Empress's lakeside palace", "Empress's palace",
           "Empress's fortress"),
    "M4": ("Emperor's hunting lodge", "Emperor's lakeside palace", "Emperor's palace",
           "Emperor's fortress"),
    "M5": ("Forest worshippers", "Sunken library", "Great library", "Scholar's hut"),
    "M6": ("Lovers' pleasure palace", "Lovers' island", "Pleasure garden", "Couple's homestead"),
    "M7": ("Horseback messenger", "Cavalry battle", "Hippodrome", "Hippodrome city"),
    "M8": ("Wild animal tamer", "Wild animal tamer", "Circus", "Wild animal tamer"),
    "M9": ("Hermit's grotto", "Hermit's grotto", "Monastery", "Monastery"),
    "M10": ("Mysterious card-player", "Mysterious card-player", "Gambling house", "Arena"),
    "M11": ("Forest chapel", "Ruined courthouse", "Courthouse", "Angelic shrine"),
    "M12": ("Sacrificial altar", "Sacrificial altar", "Plaza of gibbets", "Sacrificial altar"),
    "M13": ("Overgrown cemetery", "Flooded cemetery", "Churchyard crypt", "Clifftop cemetery"),
    "M14": ("Sacred pool", "Sacred pool", "Fountain of water-bearers", "Sacred pool"),
    "M15": ("Cave of demons", "Creature of grasping vines", "Torture dungeon", "Demonic palace"),
    "M16": ("Crumbling tower", "Crumbling tower", "Crumbling tower", "Crumbling tower"),
    "M17": ("Stone circle", "Stone circle", "Observatory", "Mountaintop observatory"),
    "M18": ("Cave of illusions", "Illusory waterfall", "Fountain of illusions", "Cave of illusions"),
    "M19": ("Walled garden", "Island garden", "Walled, private park", "Flowering oasis"),
    "M20": ("Wall with looming gate", "Wall with looming gate", "Locked city gate",
            "Narrow ravine"),
    "M21": ("Dancing giantess", "Dancing giantess", "Panoramic tower", "Dancing giantess"),
}
PLACES: dict[str, dict[str, str]] = {
    card: dict(zip(WORLD_TYPES, row)) for card, row in _PLACE_ROWS.items()
}

# Who a court card is, met on the road or joining the Party: court -> world type -> person.
_PEOPLE_ROWS: dict[str, tuple[str, str, str, str]] = {
    # Forest, Wetlands, City, Waste
    "Ps": ("Journeying apprentice", "Journeying apprentice", "Student", "Journeying apprentice"),
    "Ns": ("Swordmaster", "Swordmaster", "Debater", "Swordmaster"),
    "Qs": ("Alchemist", "Traveling scholar", "Alchemist", "Traveling scholar"),
    "Ks": ("Traveling philosopher", "Traveling philosopher", "Orator", "Traveling philosopher"),
    "Pw": ("Shepherd", "Adventurer", "Novice magician", "Shepherd"),
    "Nw": ("Heroic knight", "Heroic knight", "Champion", "Heroic knight"),
    "Qw": ("Freedom fighter", "Freedom fighter", "Playwright", "Freedom fighter"),
    "Kw": ("Rebel leader", "Rebel leader", "Charismatic actor", "Rebel leader"),
    "Pc": ("Fisher", "Fisher", "Novice scryer", "Apprentice healer"),
    "Nc": ("Forest reveler", "Traveling dancer", "Dancer", "Traveling dancer"),
    "Qc": ("Scryer", "Scryer", "Confessor", "Healer"),
    "Kc": ("Lord of the dance", "Lord of the dance", "Partying host", "Lord of the dance"),
    "Pp": ("Forager", "Forager", "Street urchin", "Journeying merchant"),
    "Np": ("Farmer", "Farmer", "Businessperson", "Farmer"),
    "Qp": ("Traveling merchant", "Traveling merchant", "Banker", "Traveling merchant"),
    "Kp": ("Merchant king", "Royal treasurer", "Royal treasurer", "Merchant king"),
}
COURT_PEOPLE: dict[str, dict[str, str]] = {
    card: dict(zip(WORLD_TYPES, row)) for card, row in _PEOPLE_ROWS.items()
}

# When a Major's power may be used (the chapter's wording, one word each):
#   "encounter"  while an encounter is being fought
#   "outside"    at rest, never during an encounter (the default the chapter gives)
#   "guard"      "any time": offered the moment a wound or a court's discard threatens
#   "after"      right after an encounter, while its defeated cards are still at hand
TIMING: dict[str, str] = {
    "M0": "encounter", "M1": "outside", "M2": "outside", "M3": "outside",
    "M4": "encounter", "M5": "encounter", "M6": "encounter", "M7": "encounter",
    "M8": "outside", "M9": "outside", "M10": "outside", "M11": "guard",
    "M12": "outside", "M13": "outside", "M14": "encounter", "M15": "outside",
    "M16": "encounter", "M17": "after", "M18": "outside", "M19": "outside",
    "M20": "outside", "M21": "outside",
}

# Printed power titles, with the project's one-line summary of each.
POWERS: dict[str, tuple[str, str]] = {
    "M0": ("The power of the small",
           "In an encounter: your Aces count 11 and come back to your hand afterwards."),
    "M1": ("Trickster",
           "Swap a Sefira's hosted stack for as many cards off the top of the discard pile."),
    "M2": ("Access the unconscious",
           "Look at the bottom 3 of the Minors deck or of the discard pile; keep 2, put 1 back."),
    "M3": ("Planting seeds",
           "Take the bottom 3 of the Minors deck; keep 1 and lay the other 2 on top, in your order."),
    "M4": ("Sanctity of law",
           "In an encounter: an encountered court card joins your Party at once."),
    "M5": ("Preserving knowledge",
           "In an encounter: up to two pips you played come back to your hand instead of the discard."),
    "M6": ("Recognition",
           "In an encounter: give a hand card to an encountered card of its suit and take that card."),
    "M7": ("Flight",
           "In an encounter you have not played into yet: leave it; the draw afterwards still comes."),
    "M8": ("Resilience",
           "Take a card back from a Wound Field into your hand."),
    "M9": ("Inner knowledge",
           "Draw 2 Minors, each from the top or the bottom of the deck."),
    "M10": ("Chance",
            "Discard your hand and draw as many again, drawing on until you hold at least 3."),
    "M11": ("Guardian angel",
            "Any time: stop a wound from being taken, or a Party court from being discarded."),
    "M12": ("Sacrifice",
            "Discard a hand card, then draw 3 Minors, each from the top or the bottom."),
    "M13": ("Resurrection",
            "Discard a wound; look at the top 4 of the discard pile, keep 1, leave the rest."),
    "M14": ("Diplomacy",
            "In an encounter: discard one encountered card."),
    "M15": ("Devil's bargain",
            "Draw 3 Minors: keep 2, and the third becomes a wound."),
    "M16": ("Trail of destruction",
            "In an encounter: discard another Party card to defeat up to 2 encountered cards."),
    "M17": ("Hope",
            "Right after an encounter: take one card you just defeated."),
    "M18": ("Mirror world",
            "Look at the bottom 4 of the deck; keep 1, put the rest back under it in your order."),
    "M19": ("Fond memory",
            "Take the top 4 of the discard pile; keep 1, put the rest under the deck in your order."),
    "M20": ("Self reflection",
            "Discard the bottom card of the deck, then take any card from the discard pile."),
    "M21": ("Perspective",
            "Look at the top 4 of the deck; keep 1, put the rest back on top in your order."),
}

# How many cards a power needs in a pile before it may be used (rulebook: "If a Major Power
# requires a certain number of cards to be present in the deck, but the deck does not have
# that many, then the card cannot be used for now").  Wheel of Fortune needs as many as the
# hand holds, which is not a constant, so the engine checks it itself.
NEEDS_DECK: dict[str, int] = {
    "M3": 3, "M9": 2, "M12": 3, "M15": 3, "M18": 4, "M20": 1, "M21": 4,
}
NEEDS_DISCARD: dict[str, int] = {"M19": 4}
PRIESTESS_LOOK = 3  # The High Priestess: from the deck or the discard pile, whichever has it
DEATH_LOOK = 4  # Death: the top 4 of the discard pile, after the wound joined it
LOST_PEEK = 3  # a lost encounter: the bottom 3 of the Minors deck
