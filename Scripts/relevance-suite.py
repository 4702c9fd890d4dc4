#!/usr/bin/env python3
"""Derives the search relevance suite's expected answers from the OSM data (issue 20).

The suite (`Tests/MapSearchTests/Relevance/NAME.json`) says, for each query, which OSM object a
person expects first; its README says group by group by which rule that answer was chosen. This
script reads the extract itself (`../shared/data/osm/NAME.osm.pbf`, with pyosmium:
`pip install osmium`) and applies those rules, independently of our engine:

    Scripts/relevance-suite.py check NAME            # every case of NAME.json against its rule
    Scripts/relevance-suite.py check                 # all extracts that have a suite file
    Scripts/relevance-suite.py candidates NAME GROUP [--limit N]
                                                     # cases the rule allows, to add new ones

`check` prints one line per case (OK, or FAIL with the reason) with what it measured (counts,
distances), then a summary per group, and exits 1 when any case fails its rule. `candidates`
lists what the same rule picks from the data, as JSON lines close to the suite's case form (ids
and numbers are left for a person to fill in).

Names are compared folded as the suite folds them (`RelevanceCase.fold` in
`Sources/TestSupport/RelevanceSuite.swift`: case, diacritics, ß → ss, punctuation runs as one
space). Multipolygons (buildings, admin boundaries, POI areas) come from osmium's area handler.
Distances are haversine metres; a distance to a way is to the nearest point of its segments (the
nearest point is found in a local plane, the distance to it is haversine). An object's position,
where one point is needed, is a node's location, the centroid of its area, or else the mean of its
nodes.
"""
import argparse
import json
import math
import os
import re
import sys
import unicodedata

try:
    import numpy as np
except ImportError:  # pragma: no cover
    sys.exit("relevance-suite.py needs numpy: pip install numpy")
try:
    import osmium
except ImportError:  # pragma: no cover
    sys.exit("relevance-suite.py needs pyosmium: pip install osmium")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUITE_DIR = os.path.join(ROOT, "Tests", "MapSearchTests", "Relevance")
DATA_DIR = os.path.join(os.path.dirname(ROOT), "shared", "data", "osm")
EARTH_RADIUS = 6371008.8

GROUPS = ["town", "street", "abbreviation", "address", "poi", "category", "category-in", "prefix", "typo",
          "diacritics", "language", "reverse-building", "reverse-road", "reverse-countryside"]

# The README's thresholds.
POI_KEYS = ("amenity", "shop", "tourism", "leisure")
CATEGORY_NEAR_METRES = 15          # `near` is set about this far from the POI (an area's
CATEGORY_NEAR_MAX = 25             # position depends on how its centre is taken: up to this much)
CATEGORY_ISOLATION = 150           # nearest other object with the same tag at least this far
BUILDING_ADDRESS_ISOLATION = 25    # no other address within this of a reverse-building point
ROAD_CLASSES = {"primary", "secondary", "tertiary", "unclassified", "residential", "living_street"}
ROAD_THRESHOLDS = {  # address, named POI, other street
    "default": (100, 60, 40),
    "monaco": (55, 35, 20),
}
COUNTRYSIDE_ROAD = 700
COUNTRYSIDE_OTHER = 300
COUNTRYSIDE_GRID = 11
COUNTRYSIDE_LEVEL = {"andorra": "7", "liechtenstein": "8"}
MUNICIPALITY_LEVEL = {"andorra": "7", "liechtenstein": "8", "monaco": "10"}

# Category words of the suite and the OSM tags that make an object one of them.
CATEGORIES = {
    "pharmacy": ["amenity=pharmacy"],
    "cafe": ["amenity=cafe"],
    "hotel": ["tourism=hotel"],
    "museum": ["tourism=museum"],
    "gas station": ["amenity=fuel"],
    "post office": ["amenity=post_office"],
    "beach": ["natural=beach", "leisure=beach_resort"],
    "hospital": ["amenity=hospital"],
    "police": ["amenity=police"],
    "campground": ["tourism=camp_site"],
    "supermarket": ["shop=supermarket"],
    "restaurant": ["amenity=restaurant"],
    "playground": ["leisure=playground"],
    "bakery": ["shop=bakery"],
    "cinema": ["amenity=cinema"],
    "library": ["amenity=library"],
    "bank": ["amenity=bank"],
}

# Abbreviations the abbreviation group writes short (applied to the raw query, before folding).
ABBREVIATIONS = [
    (r"\bBd\b\.?", ["Boulevard"]),
    (r"\bAv\b\.?", ["Avenue", "Avinguda"]),
    (r"\bCtra\b\.?", ["Carretera"]),
    (r"(?i)str\b\.?", ["strasse"]),
]


# ---------------------------------------------------------------------------------------------
# Folding

def fold(text):
    """`RelevanceCase.fold`: ß → ss, case, diacritics and width folded, punctuation runs as one space."""
    if text is None:
        return None
    text = text.replace("ß", "ss").replace("ẞ", "SS")
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    words, word = [], []
    for c in text:
        if c.isalpha() or c.isnumeric():
            word.append(c)
        elif word:
            words.append("".join(word))
            word = []
    if word:
        words.append("".join(word))
    return " ".join(words)


def fold_german(text):
    """The folding with umlauts written out (ä → ae), the German way of typing without them."""
    for a, b in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("Ä", "Ae"), ("Ö", "Oe"), ("Ü", "Ue")):
        text = text.replace(a, b)
    return fold(text)


def expansions(query):
    """The query with its abbreviations written out (every combination), the query itself first."""
    out = [query]
    for pattern, longs in ABBREVIATIONS:
        nxt = []
        for q in out:
            if re.search(pattern, q):
                nxt.extend(re.sub(pattern, long, q) for long in longs)
            nxt.append(q)
        out = list(dict.fromkeys(nxt))
    return out


def one_edit(a, b):
    """Whether b is a with one letter dropped, added, replaced, or two neighbours swapped."""
    if a == b:
        return False
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    if la == lb:
        diff = [i for i in range(la) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
    if la > lb:
        a, b = b, a
    for i in range(len(b)):
        if b[:i] + b[i + 1:] == a:
            return True
    return False


def edit_kind(a, b):
    """A word for the edit that turns name a into query b."""
    if len(b) < len(a):
        return "dropped letter"
    if len(b) > len(a):
        i = next((i for i in range(len(a)) if a[i] != b[i]), len(a))
        return "doubled letter" if i > 0 and b[i] == b[i - 1] or i + 1 < len(b) and b[i] == b[i + 1] else "added letter"
    diff = [i for i in range(len(a)) if a[i] != b[i]]
    return "swapped letters" if len(diff) == 2 else "replaced letter"


# ---------------------------------------------------------------------------------------------
# Geometry

def haversine(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS * math.asin(min(1.0, math.sqrt(h)))


def haversine_np(lat, lon, lats, lons):
    p1, p2 = np.radians(lat), np.radians(lats)
    dp, dl = p2 - p1, np.radians(lons - lon)
    h = np.sin(dp / 2) ** 2 + np.cos(p1) * np.cos(p2) * np.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS * np.arcsin(np.minimum(1.0, np.sqrt(h)))


def segment_distances(lat, lon, seg):
    """Haversine distance from (lat, lon) to the nearest point of each segment (N×4: lat1 lon1 lat2 lon2)."""
    k = math.cos(math.radians(lat))
    ax, ay = (seg[:, 1] - lon) * k, seg[:, 0] - lat
    bx, by = (seg[:, 3] - lon) * k, seg[:, 2] - lat
    dx, dy = bx - ax, by - ay
    den = dx * dx + dy * dy
    t = np.where(den > 0, -(ax * dx + ay * dy) / np.where(den > 0, den, 1), 0)
    t = np.clip(t, 0, 1)
    return haversine_np(lat, lon, seg[:, 0] + t * (seg[:, 2] - seg[:, 0]), seg[:, 1] + t * (seg[:, 3] - seg[:, 1]))


def in_ring(lat, lon, ring):
    inside = False
    n = len(ring)
    for i in range(n):
        y1, x1 = ring[i]
        y2, x2 = ring[i - 1]
        if (y1 > lat) != (y2 > lat) and lon < (x2 - x1) * (lat - y1) / (y2 - y1) + x1:
            inside = not inside
    return inside


def in_area(lat, lon, polygons):
    """polygons: [(outer ring, [inner rings])], rings as [(lat, lon)]."""
    for outer, inners in polygons:
        if in_ring(lat, lon, outer) and not any(in_ring(lat, lon, r) for r in inners):
            return True
    return False


def ring_area_centroid(ring):
    a = cx = cy = 0.0
    y0, x0 = ring[0]
    for i in range(len(ring)):
        y1, x1 = ring[i - 1][0] - y0, ring[i - 1][1] - x0
        y2, x2 = ring[i][0] - y0, ring[i][1] - x0
        c = x1 * y2 - x2 * y1
        a += c
        cx += (x1 + x2) * c
        cy += (y1 + y2) * c
    if a == 0:
        return 0.0, (y0, x0)
    return a / 2, (cy / (3 * a) + y0, cx / (3 * a) + x0)


def area_centroid(polygons):
    """The area-weighted centroid of outer rings minus inner rings."""
    total = sx = sy = 0.0
    for outer, inners in polygons:
        for ring, sign in [(outer, 1)] + [(r, -1) for r in inners]:
            a, (cy, cx) = ring_area_centroid(ring)
            a = abs(a) * sign
            total += a
            sy += a * cy
            sx += a * cx
    if total == 0:
        pts = [p for outer, _ in polygons for p in outer]
        return sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
    return sy / total, sx / total


# ---------------------------------------------------------------------------------------------
# The extract

def named_after_a_place(tags):
    """Public-transport stops, platforms and stop areas, traffic signs and information boards carry
    the name of the place they serve or describe ("Monte-Carlo" bus stop, "Larvotto" stop position,
    a "Vaduz" board); they do not make that name ambiguous, so they are left out when a name is
    checked for uniqueness."""
    return ("public_transport" in tags or "traffic_sign" in tags
            or tags.get("tourism") == "information" and tags.get("information") in ("board", "guidepost", "map")
            or tags.get("highway") in ("bus_stop", "platform") or tags.get("railway") in ("platform", "stop", "halt")
            or tags.get("type") in ("route", "route_master"))


class Extract:
    """Every tagged node, every way with its node coordinates, every relation, every assembled area."""

    def __init__(self, name, data_dir=DATA_DIR):
        self.name = name
        self.path = os.path.join(data_dir, name + ".osm.pbf")
        if not os.path.exists(self.path):
            sys.exit(f"no extract at {self.path}")
        self.tags = {}       # oid -> tags
        self.node = {}       # node oid -> (lat, lon)
        self.way = {}        # way oid -> [(lat, lon)]
        self.members = {}    # relation oid -> [(oid, role)]
        self.area = {}       # way/relation oid -> [(outer, [inners])]
        fp = osmium.FileProcessor(self.path).with_locations().with_areas()
        for o in fp:
            if o.is_node():
                if len(o.tags):
                    oid = "n%d" % o.id
                    self.tags[oid] = dict(o.tags)
                    self.node[oid] = (o.location.lat, o.location.lon)
            elif o.is_way():
                oid = "w%d" % o.id
                self.way[oid] = [(n.location.lat, n.location.lon) for n in o.nodes if n.location.valid()]
                if len(o.tags):
                    self.tags[oid] = dict(o.tags)
            elif o.is_relation():
                oid = "r%d" % o.id
                self.tags[oid] = dict(o.tags)
                self.members[oid] = [("%s%d" % (m.type, m.ref), m.role) for m in o.members]
            elif o.is_area():
                oid = ("w%d" if o.from_way() else "r%d") % o.orig_id()
                polygons = []
                for outer in o.outer_rings():
                    ring = [(n.lat, n.lon) for n in outer]
                    inners = [[(n.lat, n.lon) for n in inner] for inner in o.inner_rings(outer)]
                    polygons.append((ring, inners))
                self.area[oid] = polygons
        self._points = {}
        self._layers = {}
        self.names = {}      # folded name -> [oid], of the objects that count for a name's uniqueness
        for oid, tags in self.tags.items():
            if "name" in tags and not named_after_a_place(tags):
                self.names.setdefault(fold(tags["name"]), []).append(oid)

    # Positions

    def point(self, oid):
        if oid in self._points:
            return self._points[oid]
        p = None
        if oid in self.node:
            p = self.node[oid]
        elif oid in self.area:
            p = area_centroid(self.area[oid])
        elif oid in self.way and self.way[oid]:
            pts = self.way[oid]
            p = (sum(q[0] for q in pts) / len(pts), sum(q[1] for q in pts) / len(pts))
        elif oid in self.members:
            pts = []
            for m, _ in self.members[oid]:
                if m in self.node:
                    pts.append(self.node[m])
                elif m in self.way:
                    pts.extend(self.way[m])
            if pts:
                p = (sum(q[0] for q in pts) / len(pts), sum(q[1] for q in pts) / len(pts))
        self._points[oid] = p
        return p

    def ways_of(self, oid):
        """The node-coordinate lists of an object's lines: a way's own, a relation's member ways'."""
        if oid in self.way:
            return [self.way[oid]]
        if oid in self.members:
            return [self.way[m] for m, _ in self.members[oid] if m in self.way]
        return []

    def segments(self, oids):
        rows, owner = [], []
        for i, oid in enumerate(oids):
            for line in self.ways_of(oid):
                for a, b in zip(line, line[1:]):
                    rows.append((a[0], a[1], b[0], b[1]))
                    owner.append(i)
        return np.array(rows, dtype=float).reshape(-1, 4), np.array(owner, dtype=int)

    def distance_to(self, lat, lon, oid):
        """Metres from a point to an object: to its lines if it has any, else to its position."""
        seg, _ = self.segments([oid])
        if len(seg):
            d = float(segment_distances(lat, lon, seg).min())
            if oid in self.area and in_area(lat, lon, self.area[oid]):
                d = 0.0
            return d
        p = self.point(oid)
        return haversine(lat, lon, *p) if p else float("inf")

    # Layers: named object sets with a nearest query

    def layer(self, key, oids, lines=False):
        if key not in self._layers:
            oids = [o for o in oids if self.point(o)]
            if lines:
                seg, owner = self.segments(oids)
                self._layers[key] = ("lines", oids, seg, owner)
            else:
                pts = np.array([self.point(o) for o in oids], dtype=float).reshape(-1, 2)
                self._layers[key] = ("points", oids, pts, None)
        return self._layers[key]

    def nearest(self, key, lat, lon, exclude=(), where=None):
        """(metres, oid) of the layer's nearest object not in exclude (and passing where), or (inf, None)."""
        kind, oids, arr, owner = self._layers[key]
        if not len(arr):
            return float("inf"), None
        if kind == "points":
            d = haversine_np(lat, lon, arr[:, 0], arr[:, 1])
            idx = np.arange(len(oids))
        else:
            d = segment_distances(lat, lon, arr)
            idx = owner
        for j in np.argsort(d):
            oid = oids[idx[j]]
            if oid in exclude or (where and not where(oid)):
                continue
            return float(d[j]), oid
        return float("inf"), None

    # Kinds of object

    def is_place(self, oid):
        return oid.startswith("n") and "place" in self.tags.get(oid, {})

    def is_poi(self, oid):
        t = self.tags.get(oid, {})
        return "name" in t and any(k in t for k in POI_KEYS)

    def is_address(self, oid):
        return "addr:housenumber" in self.tags.get(oid, {})

    def is_highway(self, oid):
        return oid.startswith("w") and "highway" in self.tags.get(oid, {})

    def is_boundary(self, oid):
        t = self.tags.get(oid, {})
        return oid.startswith("r") and t.get("boundary") == "administrative"

    def has_tag(self, oid, tag):
        k, v = tag.split("=", 1)
        return self.tags.get(oid, {}).get(k) == v

    def address(self, oid):
        t = self.tags.get(oid, {})
        return t.get("addr:street"), t.get("addr:housenumber")

    def admin_areas(self, level):
        """{name: oid} of the boundary relations of that admin_level that osmium could assemble."""
        return {self.tags[o]["name"]: o for o in self.tags
                if self.is_boundary(o) and self.tags[o].get("admin_level") == level and o in self.area
                and "name" in self.tags[o]}

    def area_named(self, name, level=None):
        """The assembled admin boundary relation whose name folds to name (of that level if given)."""
        for o in self.names.get(fold(name), []):
            if self.is_boundary(o) and o in self.area and (level is None or self.tags[o].get("admin_level") == level):
                return o
        return None

    def inside(self, oid, area_oid):
        p = self.point(oid)
        return p is not None and in_area(p[0], p[1], self.area[area_oid])

    def describe(self, oid):
        if oid is None:
            return "none"
        t = self.tags.get(oid, {})
        name = t.get("name")
        kind = next((f"{k}={t[k]}" for k in ("place", "highway", "amenity", "shop", "tourism", "leisure", "boundary",
                                               "building", "natural", "historic", "waterway") if k in t), "")
        return " ".join(x for x in [oid, f'"{name}"' if name else "(unnamed)", kind] if x)


def load_suite(name):
    with open(os.path.join(SUITE_DIR, name + ".json"), encoding="utf-8") as f:
        return json.load(f)


def extracts():
    return sorted(f[:-5] for f in os.listdir(SUITE_DIR) if f.endswith(".json"))


def municipality_of(x, lat, lon):
    level = MUNICIPALITY_LEVEL.get(x.name)
    for name, oid in sorted(x.admin_areas(level).items()) if level else []:
        if in_area(lat, lon, x.area[oid]):
            return name
    return None


def wanted(case):
    e = case["expect"]
    return [e["id"]] + list(e.get("accept") or []) if e.get("id") else []


def fmt(d):
    return "inf" if d == float("inf") else "%.0f m" % d


def split_town(x, query):
    """('Dorfstrasse', 'r…') when the query ends with a municipality's name ("Dorfstrasse, Triesen")."""
    level = MUNICIPALITY_LEVEL.get(x.name)
    words = query.replace(",", " ").split()
    for k in range(1, min(3, len(words) - 1) + 1):
        town = " ".join(words[-k:])
        oid = x.area_named(town, level)
        if oid:
            return query[:query.lower().rfind(words[-k].lower() if k == 1 else words[-k].lower())].rstrip(" ,"), oid
    return query, None


# ---------------------------------------------------------------------------------------------
# The rules, one function per group. Each returns (ok, message).

def check_town(x, case):
    q = fold(case["query"])
    want = set(wanted(case))
    same = x.names.get(q, [])
    places = [o for o in same if x.is_place(o)]
    bounds = [o for o in same if x.is_boundary(o)]
    eid = case["expect"]["id"]
    msgs = [f"place nodes named so: {len(places)} ({', '.join(places) or '-'}); boundary relations: {', '.join(bounds) or '-'}"]
    if eid not in places and eid not in bounds:
        return False, f"expected {x.describe(eid)} is neither a place node nor an admin boundary named \"{case['query']}\"; " + msgs[0]
    outside = [o for o in places if o not in want]
    if outside:
        return False, "place nodes of that name not accepted: " + ", ".join(x.describe(o) for o in outside)
    if not places:
        msgs.append("no place node of that name, the boundary relation stands for the town")
    other = [o for o in want if o not in places and o not in bounds]
    if other:
        msgs.append("also accepted: " + ", ".join(x.describe(o) for o in other))
    return True, "; ".join(msgs)


def street_ways(x, name, town=None):
    ways = [o for o in x.names.get(fold(name), []) if x.is_highway(o) and x.tags[o].get("name") == name]
    if town:
        ways = [o for o in ways if x.inside(o, town)]
    return ways


def check_street(x, case, abbreviated=False):
    e = case["expect"]
    name = x.tags.get(e["id"], {}).get("name")
    if not x.is_highway(e["id"]):
        return False, f"expected {x.describe(e['id'])} is not a highway"
    query, town = split_town(x, case["query"])
    variants = expansions(query) if abbreviated else [query]
    if not any(fold(v) == fold(name) for v in variants):
        what = "written out" if abbreviated else "folded"
        return False, f"query \"{query}\" {what} is not the way's name \"{name}\" (tried {variants})"
    if abbreviated and fold(query) == fold(name) and "ß" not in query:
        return False, f"query \"{query}\" abbreviates nothing"
    ways = set(street_ways(x, name, town))
    want = set(wanted(case))
    where = f" inside {x.describe(town)}" if town else ""
    missing, extra = ways - want, want - ways
    msg = f"{len(ways)} ways named \"{name}\"{where}"
    if town:
        msg += f" (of {len(street_ways(x, name))} in the extract)"
    elif len({municipality_of(x, *x.point(o)) for o in ways} - {None}) > 1 and x.name == "liechtenstein":
        msg += " across several municipalities"
    if missing or extra:
        return False, msg + (f"; not accepted: {sorted(missing)}" if missing else "") + \
            (f"; accepted but not such a way: {sorted(extra)}" if extra else "")
    return True, msg + ", all accepted"


def check_abbreviation(x, case):
    return check_street(x, case, abbreviated=True)


def check_address(x, case):
    e = case["expect"]
    street, number = e["street"], e["houseNumber"]
    q = " " + " ".join(fold(v) for v in expansions(case["query"])) + " "
    if f" {fold(number)} " not in q or f" {fold(street)} " not in q:
        return False, f"query \"{case['query']}\" does not hold \"{street}\" and \"{number}\""
    holders = [o for o in x.tags if x.address(o) == (street, number)]
    if len(holders) != 1:
        return False, f"{len(holders)} objects carry {street} {number}: " + ", ".join(x.describe(o) for o in holders)
    if holders[0] not in wanted(case):
        return False, f"the one object with {street} {number} is {x.describe(holders[0])}, not {e['id']}"
    msg = f"{street} {number} occurs once, on {x.describe(holders[0])}"
    _, town = split_town(x, re.sub(r"\b\d{4,5}\b", "", case["query"]).strip(" ,"))
    if town:
        if not x.inside(holders[0], town):
            return False, msg + f"; but it is not inside {x.describe(town)} named in the query"
        msg += f", inside {x.tags[town]['name']}"
    m = re.search(r"\b(\d{4,5})\b", case["query"])
    if m and m.group(1) != number:
        pc = x.tags[holders[0]].get("addr:postcode")
        if pc and pc != m.group(1):
            return False, msg + f"; query's postcode {m.group(1)} but addr:postcode={pc}"
        msg += f", postcode {m.group(1)} (addr:postcode {pc or 'not set'})"
    return True, msg


def unique_name(x, q, want):
    """The objects whose folded name is q, and those of them outside want."""
    same = x.names.get(q, [])
    return same, [o for o in same if o not in want]


def check_poi(x, case):
    e = case["expect"]
    eid = e["id"]
    t = x.tags.get(eid, {})
    q = fold(case["query"])
    if fold(t.get("name")) != q:
        return False, f"query does not fold to the name of {x.describe(eid)}"
    if not any(k in t for k in POI_KEYS):
        kinds = ", ".join(f"{k}={v}" for k, v in t.items() if k in ("natural", "historic", "building", "man_made", "office"))
        return False, f"{x.describe(eid)} is no amenity/shop/tourism/leisure object ({kinds or 'no such tag'})"
    same, outside = unique_name(x, q, set(wanted(case)))
    if outside:
        return False, f"folded name shared by {len(same)} objects: " + ", ".join(x.describe(o) for o in same)
    return True, f"folded name unique ({len(same)} object{'s' if len(same) > 1 else ''}: {', '.join(same)})"


def category_tag(x, oid, word):
    return next((tag for tag in CATEGORIES.get(word, []) if x.has_tag(oid, tag)), None)


def same_tag_layer(x, tag):
    key = "tag:" + tag
    return x.layer(key, [o for o in x.tags if x.has_tag(o, tag)]) and key


def check_category(x, case):
    e = case["expect"]
    word = fold(case["query"])
    if word not in CATEGORIES:
        return False, f"no OSM tag known for the category word \"{case['query']}\""
    eid = e["id"]
    tag = category_tag(x, eid, word)
    if not tag:
        return False, f"{x.describe(eid)} has none of {CATEGORIES[word]}"
    if "name" not in x.tags[eid]:
        return False, f"{x.describe(eid)} is unnamed"
    lat, lon = case["near"]
    p = x.point(eid)
    dn = haversine(lat, lon, *p)
    key = same_tag_layer(x, tag)
    want = set(wanted(case))
    d_other, other = x.nearest(key, p[0], p[1], exclude=want)
    d_other_near, _ = x.nearest(key, lat, lon, exclude=want)
    msg = f"{tag}; near is {fmt(dn)} from it; nearest other {tag} {fmt(d_other)} away ({x.describe(other)})"
    if dn > CATEGORY_NEAR_MAX:
        return False, msg + f"; near should be about {CATEGORY_NEAR_METRES} m from the POI (at most {CATEGORY_NEAR_MAX} m)"
    if d_other < CATEGORY_ISOLATION:
        return False, msg + f"; under {CATEGORY_ISOLATION} m"
    if d_other_near <= dn:
        return False, msg + "; another object of the tag is nearer to near"
    dup = [o for o in want if o != eid]
    if dup:
        msg += "; accepted duplicate " + ", ".join(x.describe(o) for o in dup)
    return True, msg


def check_category_in(x, case):
    m = re.match(r"^(.*?) in (.*)$", case["query"])
    if not m:
        return False, "query is not \"CATEGORY in TOWN\""
    word, town = fold(m.group(1)), m.group(2)
    tags = CATEGORIES.get(word)
    if not tags:
        return False, f"no OSM tag known for \"{m.group(1)}\""
    area = x.area_named(town, MUNICIPALITY_LEVEL.get(x.name))
    if not area:
        return False, f"no assembled boundary named {town}"
    inside = [o for o in x.tags if any(x.has_tag(o, t) for t in tags) and x.inside(o, area)]
    want = set(wanted(case))
    # An unnamed area drawn on top of the expected POI is the same place mapped twice.
    eid = case["expect"]["id"]
    same = [o for o in inside if o not in want and "name" not in x.tags[o] and eid in x.node and o in x.area
            and in_area(*x.node[eid], x.area[o])]
    distinct = [o for o in inside if o not in want and o not in same]
    msg = f"{len(inside)} object(s) with {'/'.join(tags)} inside {x.describe(area)}: " + \
        ", ".join(x.describe(o) for o in inside)
    if case["expect"]["id"] not in inside:
        return False, msg + f"; {case['expect']['id']} is not one of them"
    if distinct:
        return False, msg
    if same:
        msg += f"; {', '.join(same)} is the unnamed area around {eid} (the same place, not in accept)"
    return True, msg


def check_prefix(x, case):
    e = case["expect"]
    eid = e["id"]
    name = x.tags.get(eid, {}).get("name", "")
    q, n = fold(case["query"]), fold(name)
    if not n.startswith(q) or q == n:
        words = [w for w in n.split() if w.startswith(q.split()[0])] if q else []
        if words and (" " + n).find(" " + q) > 0:
            return False, f"\"{case['query']}\" starts the word \"{words[0]}\" inside \"{name}\", not the name"
        return False, f"\"{case['query']}\" is not a proper prefix of \"{name}\""
    same, outside = unique_name(x, n, set(wanted(case)))
    others = sorted({x.tags[o]["name"] for ns, os_ in x.names.items() if ns.startswith(q) and ns != n for o in os_})
    msg = f"prefix of \"{name}\" ({len(same)} object(s) of that name); {len(others)} other names start so" + \
        (f" ({', '.join(others[:4])}{', …' if len(others) > 4 else ''})" if others else "")
    if outside:
        return False, msg + "; name not unique: " + ", ".join(x.describe(o) for o in outside)
    if not n[len(q)].isalnum():
        return False, msg + f"; cut at a word boundary (next in the name: {name[len(case['query']):len(case['query']) + 2]!r}), not inside a word"
    return True, msg


def check_typo(x, case):
    e = case["expect"]
    eid = e["id"]
    name = x.tags.get(eid, {}).get("name", "")
    q, n = fold(case["query"]), fold(name)
    if not one_edit(n, q):
        return False, f"\"{case['query']}\" is not one edit from \"{name}\""
    same, outside = unique_name(x, n, set(wanted(case)))
    exact = x.names.get(q, [])
    msg = f"{edit_kind(n, q)} in \"{name}\" ({len(same)} object(s) of that name)"
    if outside:
        return False, msg + "; name not unique: " + ", ".join(x.describe(o) for o in outside)
    if exact:
        return False, msg + "; the typo is itself a name: " + ", ".join(x.describe(o) for o in exact)
    return True, msg


def check_diacritics(x, case):
    e = case["expect"]
    eid = e["id"]
    name = x.tags.get(eid, {}).get("name", "")
    query = case["query"]
    if fold(query) == fold(name):
        how = "query written with them" if query == name else "folds to the name"
    elif fold_german(name) == fold(query):
        how = "umlauts written ae/oe/ue"
    else:
        return False, f"\"{query}\" does not fold to \"{name}\""
    if fold(name) == name.lower().replace("-", " ").replace("'", " "):
        return False, f"\"{name}\" has no diacritics"
    same, outside = unique_name(x, fold(name), set(wanted(case)))
    msg = f"{how} (\"{name}\", {len(same)} object(s) of that name)"
    if outside:
        msg += "; also named so: " + ", ".join(x.describe(o) for o in outside)
    return True, msg


def check_language(x, case):
    q = fold(case["query"])
    note_key = re.search(r"name:([a-z]{2})", case.get("note", ""))
    for oid in wanted(case):
        t = x.tags.get(oid, {})
        keys = [k for k, v in t.items() if re.fullmatch(r"name:[a-z]{2}", k) and fold(v) == q]
        if keys:
            if fold(t.get("name")) == q:
                return False, f"{x.describe(oid)}: {keys[0]} equals its name"
            if note_key and "name:" + note_key.group(1) not in keys:
                return False, f"{x.describe(oid)} has it as {', '.join(keys)}, the note says name:{note_key.group(1)}"
            others = [o for o in x.tags if o not in wanted(case) and any(
                fold(v) == q for k, v in x.tags[o].items() if k == "name" or re.fullmatch(r"name:[a-z]{2}", k))]
            msg = f"{', '.join(keys)} of {x.describe(oid)}"
            if others:
                msg += "; also so named: " + ", ".join(x.describe(o) for o in others[:3])
            return True, msg
    return False, "no name:xx of " + ", ".join(wanted(case)) + f" folds to \"{case['query']}\""


def check_reverse_building(x, case):
    e = case["expect"]
    lat, lon = case["coordinate"]
    bid = e["id"]
    t = x.tags.get(bid, {})
    if "building" not in t:
        return False, f"{x.describe(bid)} is not a building"
    if bid not in x.area:
        return False, f"{bid} has no assembled area"
    if (t.get("addr:street"), t.get("addr:housenumber")) != (e["street"], e["houseNumber"]):
        return False, f"{bid} carries {t.get('addr:street')} {t.get('addr:housenumber')}"
    if not in_area(lat, lon, x.area[bid]):
        return False, "the point is outside the building"
    c = x.point(bid)
    dc = haversine(lat, lon, *c)
    x.layer("address", [o for o in x.tags if x.is_address(o)])
    d, other = x.nearest("address", lat, lon, where=lambda o: x.address(o) != (e["street"], e["houseNumber"]))
    msg = f"inside {bid}, {dc:.1f} m from its centroid; nearest other address {fmt(d)} ({x.describe(other)} {' '.join(filter(None, x.address(other)))})"
    if dc > 2:
        d_c, other_c = x.nearest("address", c[0], c[1], where=lambda o: x.address(o) != (e["street"], e["houseNumber"]))
        return False, msg + f"; not the centroid (from the centroid the nearest other address is {fmt(d_c)})"
    if d < BUILDING_ADDRESS_ISOLATION:
        return False, msg + f"; under {BUILDING_ADDRESS_ISOLATION} m"
    if e.get("area"):
        m = municipality_of(x, lat, lon)
        if fold(m or "") != fold(e["area"]):
            return False, msg + f"; the point lies in {m}, not {e['area']}"
        msg += f"; in {m}"
    return True, msg


def road_layers(x):
    x.layer("named-road", [o for o in x.tags if x.is_highway(o) and "name" in x.tags[o]], lines=True)
    x.layer("address", [o for o in x.tags if x.is_address(o)])
    x.layer("poi", [o for o in x.tags if x.is_poi(o)])
    x.layer("place", [o for o in x.tags if x.is_place(o)])


def road_measure(x, lat, lon, street, way=None):
    """(distance to a road of that name, next differently named road, address, named POI) from a point."""
    road_layers(x)
    d_on, on = x.nearest("named-road", lat, lon, where=lambda o: x.tags[o]["name"] == street)
    d_road, road = x.nearest("named-road", lat, lon, where=lambda o: x.tags[o]["name"] != street)
    d_addr, addr = x.nearest("address", lat, lon)
    d_poi, poi = x.nearest("poi", lat, lon)
    return (d_on, on), (d_road, road), (d_addr, addr), (d_poi, poi)


def check_reverse_road(x, case):
    e = case["expect"]
    lat, lon = case["coordinate"]
    street = e["street"]
    addr_min, poi_min, road_min = ROAD_THRESHOLDS.get(x.name, ROAD_THRESHOLDS["default"])
    (d_on, on), (d_road, road), (d_addr, addr), (d_poi, poi) = road_measure(x, lat, lon, street)
    m = re.search(r"on (w\d+)", case.get("note", ""))
    way = m.group(1) if m else on
    msg = f"{fmt(d_on)} from {x.describe(on)}; other street {fmt(d_road)} ({x.tags.get(road, {}).get('name')}), " \
          f"address {fmt(d_addr)}, named POI {fmt(d_poi)} ({x.tags.get(poi, {}).get('name')})"
    problems = []
    hw = x.tags.get(way, {}).get("highway")
    if x.tags.get(way, {}).get("name") != street:
        problems.append(f"{way} is not named {street}")
    if hw not in ROAD_CLASSES:
        problems.append(f"{way} is highway={hw}, not primary…residential/living_street")
    if d_on > 1:
        problems.append("the point is not on the road")
    else:
        line = x.way.get(way, [])
        mids = [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in zip(line, line[1:])]
        k = min(range(len(mids)), key=lambda i: haversine(lat, lon, *mids[i])) if mids else None
        if k is None or haversine(lat, lon, *mids[k]) > 1:
            problems.append("not the midpoint of a segment of " + way)
        elif len(mids) >= 3 and k in (0, len(mids) - 1):
            problems.append(f"midpoint of an end segment ({k + 1} of {len(mids)})")
    if d_addr < addr_min:
        problems.append(f"address under {addr_min} m ({x.describe(addr)})")
    if d_poi < poi_min:
        problems.append(f"named POI under {poi_min} m")
    if d_road < road_min:
        problems.append(f"other street under {road_min} m")
    if e.get("area"):
        mun = municipality_of(x, lat, lon)
        if fold(mun or "") != fold(e["area"]):
            problems.append(f"the point lies in {mun}, not {e['area']}")
        else:
            msg += f"; in {mun}"
    if problems:
        return False, msg + "; " + "; ".join(problems)
    return True, msg


def countryside_measure(x, lat, lon):
    road_layers(x)
    d_road, road = x.nearest("named-road", lat, lon)
    best = min((x.nearest(k, lat, lon) for k in ("place", "poi", "address")), key=lambda r: r[0])
    return (d_road, road), best


def countryside_grid(x, area_oid):
    """n × n points inside the bounding box of each outer ring of the area, the box's edges left out."""
    n = COUNTRYSIDE_GRID
    grid = []
    for outer, _ in x.area[area_oid]:
        lat0, lat1 = min(p[0] for p in outer), max(p[0] for p in outer)
        lon0, lon1 = min(p[1] for p in outer), max(p[1] for p in outer)
        grid += [(lat0 + (lat1 - lat0) * i / (n + 1), lon0 + (lon1 - lon0) * j / (n + 1))
                 for i in range(1, n + 1) for j in range(1, n + 1)]
    return grid


def check_reverse_countryside(x, case):
    e = case["expect"]
    lat, lon = case["coordinate"]
    level = COUNTRYSIDE_LEVEL.get(x.name)
    if not level:
        return False, f"{x.name} has no countryside level"
    area = x.area_named(e["area"], level)
    if not area:
        return False, f"no assembled admin_level={level} boundary named {e['area']}"
    (d_road, road), (d_other, other) = countryside_measure(x, lat, lon)
    msg = f"inside {x.describe(area)}: " if in_area(lat, lon, x.area[area]) else ""
    msg += f"nearest named road {fmt(d_road)} ({x.tags.get(road, {}).get('name')}), " \
           f"nearest place/POI/address {fmt(d_other)} ({x.describe(other)})"
    if not in_area(lat, lon, x.area[area]):
        return False, f"the point is outside {x.describe(area)}; " + msg
    grid = countryside_grid(x, area)
    on_grid = min(haversine(lat, lon, *g) for g in grid) < 1
    msg += "; a grid point" if on_grid else "; not on the 11×11 grid"
    if d_road < COUNTRYSIDE_ROAD or d_other < COUNTRYSIDE_OTHER:
        return False, msg + f"; needs road ≥ {COUNTRYSIDE_ROAD} m and place/POI/address ≥ {COUNTRYSIDE_OTHER} m"
    return True, msg


CHECKS = {
    "town": check_town, "street": check_street, "abbreviation": check_abbreviation, "address": check_address,
    "poi": check_poi, "category": check_category, "category-in": check_category_in, "prefix": check_prefix,
    "typo": check_typo, "diacritics": check_diacritics, "language": check_language,
    "reverse-building": check_reverse_building, "reverse-road": check_reverse_road,
    "reverse-countryside": check_reverse_countryside,
}


def check(name, data_dir, verbose=True):
    suite = load_suite(name)
    x = Extract(name, data_dir)
    tally = {}
    failures = []
    for case in suite["cases"]:
        group = case["group"]
        fn = CHECKS.get(group)
        try:
            ok, msg = fn(x, case) if fn else (False, f"no rule for group {group}")
        except Exception as error:  # a broken case must not hide the others
            ok, msg = False, f"error {type(error).__name__}: {error}"
        ok_n, total = tally.get(group, (0, 0))
        tally[group] = (ok_n + ok, total + 1)
        asked = case.get("query") or ",".join(str(c) for c in case.get("coordinate", []))
        line = f"{'OK  ' if ok else 'FAIL'} {case['id']} [{group}] {asked!r}: {msg}"
        if not ok:
            failures.append(line)
        if verbose or not ok:
            print(line)
    oks = sum(v[0] for v in tally.values())
    total = sum(v[1] for v in tally.values())
    print(f"{name}: {oks}/{total} cases satisfy their rule")
    print("  by group: " + ", ".join(f"{g} {tally[g][0]}/{tally[g][1]}" for g in GROUPS + sorted(set(tally) - set(GROUPS))
                                      if g in tally))
    return failures


# ---------------------------------------------------------------------------------------------
# Candidates: what each rule picks from the data

def cand_town(x):
    bounds = {fold(x.tags[o]["name"]): o for o in x.tags if x.is_boundary(o) and "name" in x.tags[o]}
    for o in sorted((o for o in x.tags if x.is_place(o) and "name" in x.tags[o]),
                    key=lambda o: ["country", "city", "town", "village", "suburb", "hamlet"].index(x.tags[o]["place"])
                    if x.tags[o]["place"] in ["country", "city", "town", "village", "suburb", "hamlet"] else 9):
        name = x.tags[o]["name"]
        places = [p for p in x.names[fold(name)] if x.is_place(p)]
        if len(places) != 1:
            continue
        b = bounds.get(fold(name))
        yield {"group": "town", "kind": "search", "query": name,
               "expect": {"id": o, "name": name, **({"accept": [b]} if b else {})}, "note": "place=" + x.tags[o]["place"]}


def cand_street(x, abbreviated=False):
    names = sorted({x.tags[o]["name"] for o in x.tags if x.is_highway(o) and "name" in x.tags[o]})
    level = MUNICIPALITY_LEVEL.get(x.name)
    towns = x.admin_areas(level) if level else {}
    for name in names:
        ways = street_ways(x, name)
        query = name
        if abbreviated:
            short = [(r"^Boulevard\b", "Bd"), (r"^Avenue\b", "Av."), (r"^Avinguda\b", "Av."), (r"^Carretera\b", "Ctra."),
                     (r"strasse$", "str."), (r" Strasse$", " Str."), (r"ss", "ß")]
            query = next((re.sub(p, s, name) for p, s in short if re.search(p, name)), None)
            if not query:
                continue
        byTown = {}
        for w in ways:
            byTown.setdefault(municipality_of(x, *x.point(w)), []).append(w)
        if len(byTown) > 1 and towns:
            for town, ws in sorted(byTown.items(), key=lambda kv: str(kv[0])):
                if town:
                    inside = street_ways(x, name, towns[town])
                    yield {"group": "abbreviation" if abbreviated else "street", "kind": "search", "query": f"{query}, {town}",
                           "expect": {"id": inside[0], "name": name, "accept": inside[1:]},
                           "note": f"any of the {len(inside)} ways named {name} inside {town}; {len(byTown)} municipalities have one"}
        else:
            yield {"group": "abbreviation" if abbreviated else "street", "kind": "search", "query": query,
                   "expect": {"id": ways[0], "name": name, "accept": ways[1:]}, "note": f"any of the {len(ways)} ways named {name}"}


def cand_abbreviation(x):
    yield from cand_street(x, abbreviated=True)


def cand_address(x):
    pairs = {}
    for o in x.tags:
        s, n = x.address(o)
        if s and n:
            pairs.setdefault((s, n), []).append(o)
    for (s, n), objs in sorted(pairs.items()):
        if len(objs) == 1:
            query = f"{n} {s}" if x.name == "monaco" else f"{s} {n}"
            yield {"group": "address", "kind": "geocode", "query": query,
                   "expect": {"id": objs[0], "name": x.tags[objs[0]].get("name"), "accept": [], "street": s, "houseNumber": n}}


def unique_named(x, pred):
    for q, objs in sorted(x.names.items()):
        if len(objs) == 1 and pred(objs[0]):
            yield objs[0]


def cand_poi(x):
    for o in unique_named(x, x.is_poi):
        yield {"group": "poi", "kind": "search", "query": x.tags[o]["name"], "expect": {"id": o, "name": x.tags[o]["name"]}}


def offset(lat, lon, metres):
    return round(lat + metres / 111195.0, 6), round(lon, 6)


def cand_category(x):
    out = []
    for word, tags in CATEGORIES.items():
        for tag in tags:
            key = same_tag_layer(x, tag)
            for o in x.tags:
                if x.has_tag(o, tag) and "name" in x.tags[o] and x.point(o):
                    p = x.point(o)
                    d, other = x.nearest(key, p[0], p[1], exclude={o})
                    if d >= CATEGORY_ISOLATION:
                        out.append((word, -d, o, other, p))
    for word, negd, o, other, p in sorted(out):
        yield {"group": "category", "kind": "search", "query": word, "near": list(offset(p[0], p[1], CATEGORY_NEAR_METRES)),
               "expect": {"id": o, "name": x.tags[o]["name"]},
               "note": f"nearest other match {-negd:.0f} m away ({x.tags.get(other, {}).get('name', 'unnamed') if other else 'none'})"}


def cand_category_in(x):
    level = MUNICIPALITY_LEVEL.get(x.name)
    for town, area in sorted(x.admin_areas(level).items()):
        for word, tags in CATEGORIES.items():
            inside = [o for o in x.tags if any(x.has_tag(o, t) for t in tags) and x.inside(o, area)]
            if len(inside) == 1:
                yield {"group": "category-in", "kind": "search", "query": f"{word} in {town}",
                       "expect": {"id": inside[0], "name": x.tags[inside[0]].get("name")}, "note": f"the only {word} in {town}"}


def cut_inside(name):
    """The name cut inside its last long word (about two thirds of it kept)."""
    m = list(re.finditer(r"\w{5,}", name))
    if not m:
        return None
    w = m[-1]
    return name[:w.start() + max(3, round(len(w.group()) * 2 / 3))]


def cand_prefix(x):
    for o in unique_named(x, lambda o: x.is_poi(o) or x.is_place(o)):
        q = cut_inside(x.tags[o]["name"])
        if q:
            yield {"group": "prefix", "kind": "complete", "query": q, "expect": {"id": o, "name": x.tags[o]["name"]}}


def cand_typo(x):
    for o in unique_named(x, lambda o: x.is_poi(o) or x.is_place(o)):
        name = x.tags[o]["name"]
        m = list(re.finditer(r"[a-z]{5,}", name))
        if not m:
            continue
        i = m[-1].start() + len(m[-1].group()) // 2
        q = name[:i] + name[i + 1] + name[i] + name[i + 2:]
        if q != name and fold(q) not in x.names:
            yield {"group": "typo", "kind": "search", "query": q, "expect": {"id": o, "name": name}, "note": "swapped letters"}


def cand_diacritics(x):
    for o in unique_named(x, lambda o: x.is_poi(o) or x.is_place(o)):
        name = x.tags[o]["name"]
        plain = "".join(c for c in unicodedata.normalize("NFD", name) if not unicodedata.combining(c))
        if plain != name:
            yield {"group": "diacritics", "kind": "search", "query": plain, "expect": {"id": o, "name": name}}


def cand_language(x):
    for o, t in x.tags.items():
        if "name" not in t or not (x.is_poi(o) or x.is_place(o) or "natural" in t or "waterway" in t or "historic" in t):
            continue
        for key in ("name:en", "name:de", "name:fr", "name:ca"):
            v = t.get(key)
            if v and fold(v) != fold(t["name"]) and len(x.names.get(fold(v), [])) == 0:
                yield {"group": "language", "kind": "search", "query": v, "expect": {"id": o, "name": t["name"]}, "note": key}


def cand_reverse_building(x):
    x.layer("address", [o for o in x.tags if x.is_address(o)])
    for o in sorted(x.area, key=lambda o: int(o[1:])):
        t = x.tags.get(o, {})
        if "building" not in t or not t.get("addr:street") or not t.get("addr:housenumber"):
            continue
        lat, lon = x.point(o)
        if not in_area(lat, lon, x.area[o]):
            continue
        addr = (t["addr:street"], t["addr:housenumber"])
        d, other = x.nearest("address", lat, lon, where=lambda a: x.address(a) != addr)
        if d >= BUILDING_ADDRESS_ISOLATION:
            expect = {"street": addr[0], "houseNumber": addr[1], "id": o}
            m = municipality_of(x, lat, lon) if x.name == "liechtenstein" else None
            if m:
                expect["area"] = m
            yield {"group": "reverse-building", "kind": "reverse", "coordinate": [round(lat, 7), round(lon, 7)],
                   "expect": expect, "note": f"inside building {o}" + (f" ({t['name']})" if "name" in t else "") +
                   f"; nearest other address {d:.0f} m"}


def cand_reverse_road(x):
    addr_min, poi_min, road_min = ROAD_THRESHOLDS.get(x.name, ROAD_THRESHOLDS["default"])
    for o in sorted((o for o in x.tags if x.is_highway(o) and x.tags[o]["highway"] in ROAD_CLASSES and "name" in x.tags[o]),
                    key=lambda o: int(o[1:])):
        line = x.way[o]
        if len(line) < 2:
            continue
        k = (len(line) - 1) // 2
        lat, lon = (line[k][0] + line[k + 1][0]) / 2, (line[k][1] + line[k + 1][1]) / 2
        street = x.tags[o]["name"]
        _, (d_road, _), (d_addr, _), (d_poi, _) = road_measure(x, lat, lon, street)
        if d_addr >= addr_min and d_poi >= poi_min and d_road >= road_min:
            expect = {"street": street}
            m = municipality_of(x, lat, lon) if x.name in COUNTRYSIDE_LEVEL else None
            if m:
                expect["area"] = m
            yield {"group": "reverse-road", "kind": "reverse", "coordinate": [round(lat, 7), round(lon, 7)], "expect": expect,
                   "note": f"on {o}; next other street {d_road:.0f} m; no address within {addr_min} m"}


def cand_reverse_countryside(x):
    level = COUNTRYSIDE_LEVEL.get(x.name)
    if not level:
        return
    for name, area in sorted(x.admin_areas(level).items()):
        best = None
        for lat, lon in countryside_grid(x, area):
            if not in_area(lat, lon, x.area[area]):
                continue
            (d_road, _), (d_other, _) = countryside_measure(x, lat, lon)
            if d_road >= COUNTRYSIDE_ROAD and d_other >= COUNTRYSIDE_OTHER and (best is None or d_road > best[0]):
                best = (d_road, d_other, lat, lon)
        if best:
            yield {"group": "reverse-countryside", "kind": "reverse", "coordinate": [round(best[2], 7), round(best[3], 7)],
                   "expect": {"area": name},
                   "note": f"inside {area} ({name}); nearest named road {best[0]:.0f} m, nearest place/POI/address {best[1]:.0f} m"}


CANDIDATES = {
    "town": cand_town, "street": cand_street, "abbreviation": cand_abbreviation, "address": cand_address,
    "poi": cand_poi, "category": cand_category, "category-in": cand_category_in, "prefix": cand_prefix,
    "typo": cand_typo, "diacritics": cand_diacritics, "language": cand_language,
    "reverse-building": cand_reverse_building, "reverse-road": cand_reverse_road,
    "reverse-countryside": cand_reverse_countryside,
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=DATA_DIR, help="folder of the NAME.osm.pbf extracts (default ../shared/data/osm)")
    sub = parser.add_subparsers(dest="command")
    c = sub.add_parser("check", help="check every case of the suite against its group's rule")
    c.add_argument("names", nargs="*", help="extracts (default: every suite file)")
    c.add_argument("--failures", action="store_true", help="print only the cases that fail")
    k = sub.add_parser("candidates", help="list what a group's rule picks from the data")
    k.add_argument("name")
    k.add_argument("group", choices=GROUPS)
    k.add_argument("--limit", type=int, default=20)
    args = parser.parse_args()
    if args.command == "candidates":
        x = Extract(args.name, args.data)
        for i, case in enumerate(CANDIDATES[args.group](x)):
            if i >= args.limit:
                break
            print(json.dumps(case, ensure_ascii=False))
        return 0
    names = getattr(args, "names", None) or extracts()
    failures = []
    for name in names:
        failures += check(name, args.data, verbose=not getattr(args, "failures", False))
    if failures and len(names) > 1:
        print(f"{len(failures)} case(s) fail their rule")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
