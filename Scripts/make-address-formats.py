#!/usr/bin/env python3
"""Generates Sources/MapSearch/AddressFormats.generated.swift from OpenCage's address-formatting.

OpenCage's address-formatting (https://github.com/OpenCageData/address-formatting, MIT licence,
(c) OpenCage GmbH) is the well-kept, tested record of how each country writes a postal address:
`conf/countries/worldwide.yaml` gives every ISO 3166-1 country a mustache template (or
`use_country:` another country's), and `testcases/` hold real addresses with the text expected.

The templates are not copied. Each is reduced to what our address fields (MapKit's / CLPlacemark's)
can express, as a compact line pattern that `AddressFormat` (Sources/MapSearch/AddressFormat.swift)
renders:

    {S} {N}
    {P} {L|K|A}
    {C}

Lines are separated by "\\n". `{X|Y}` is a slot: the first of its alternatives that has a value
(OpenCage's `{{#first}} … || … {{/first}}`); an alternative is one field, or several with the text
between them ("{N S|D}": the number and street, else the district). Text between slots is written
only between two values, and the text that follows the last value written is the one used ("{L},
{A} {P}" without A gives "L, P"); text ending a line is the suffix of the value before it, written
with it (Hungary's "{S} {N}."). The field codes:

    N  houseNumber            house_number
    S  street                 road; place and hamlet where they stand in for the road in a first-of
    P  postalCode             postcode
    D  subLocality            suburb, city_district, neighbourhood, quarter (and their aliases)
    L  locality               city, town, village, municipality, postal_city, hamlet
    K  subAdministrativeArea  county, state_district, county_code
    A  administrativeArea     state, region (and province)
    C  country                country (its name as the caller gives it, in the reader's language)
    a  administrativeArea     as its code where the template prefers state_code ("CA" for California)
    k  subAdministrativeArea  as its code where the template prefers county_code ("TO" for Torino)

The codes come from OpenCage's state_codes.yaml and county_codes.yaml, for the countries whose
patterns write them; a value that is not listed is written as it is.

Dropped, as no field holds them: attention, house (a building's name), place outside a road's
first-of, island, archipelago, continent, country_code. After mapping, repeated fields in a first-of
collapse ("{{{city}}} || {{{town}}}" is one L, placed where the component the field mostly holds
stands: K is the county, so "state_district || suburb || county" becomes {D|K}). A field that
several slots offer stays in each; the renderer writes it once, in the last slot that takes it (US:
"{{{village}}} || {{{hamlet}}}" on a line of its own, then the city line "city || town || …,
state_code postcode": our one locality goes to the city line).

Also dropped, and not emulated by AddressFormat:
  - `replace` (regexes on component values: "^Politischer Bezirk ", "^London Borough of " …) and
    `postformat_replace` (regexes on the output: postcode spacing "\\n(\\d{4})(\\w{2}) " in NL, PL,
    CZ, JP, BR, AR; the US country name; "Monaco\\nMonaco"): they repair values from geocoders, and
    the place index keeps OSM's values as tagged;
  - `change_country` and `add_component` (names: the caller gives the country's name);
  - the language variants (`CA_fr`, `JP_ja` …): one pattern per country;
  - OpenCage's value clean-up (postcode ranges, trailing commas) and its special cases in code
    (Washington, D.C.; Dutch Caribbean territories; "New York, New York" kept twice).

What no field can hold is lost: a village and a city, or a region and a state, in one address (we
have one locality, one administrative area). The self-check's failures are these and the above.

Every country of worldwide.yaml gets an address pattern and a fallback pattern (used when an address
has neither street nor postcode, as OpenCage does; the country's own `fallback_template`, else the
default's). Unknown countries get `default`.

Self-check: every testcase (testcases/countries/*.yaml, testcases/other/*.yaml) is rendered through
its reduced pattern with the same rules as the Swift renderer, and compared with `expected` after
the lines and parts made only of values our fields cannot express (attention, house names, islands)
are taken out. It prints two counts: as is, and with the dropped `replace`/`postformat_replace`
regexes and OpenCage's postcode clean-up applied by the check itself (what differs only there is a
value-fixing rule, not the layout); --verbose lists the testcases that still differ.

Usage: Scripts/make-address-formats.py SOURCE [--out FILE] [--check] [--verbose]
  SOURCE  a checkout of address-formatting, or its git directory (read with `git show HEAD:…`)
  --check compare with the committed output instead of writing it (exit 1 when it differs)
"""
import argparse
import os
import re
import subprocess
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUT = os.path.join(ROOT, "Sources", "MapSearch", "AddressFormats.generated.swift")

FIELDS = "NSPDLKACak"


# MARK: - Reading the source

class Source:
    """address-formatting's files from a checkout or a git directory."""

    def __init__(self, path):
        self.path = path
        self.git = not os.path.isfile(os.path.join(path, "conf", "countries", "worldwide.yaml"))
        if self.git:
            self.commit = self._git("rev-parse", "HEAD").strip()
        else:
            # The checkout's commit, when it is a git work tree of its own (not a folder of another).
            try:
                top, commit = subprocess.run(["git", "-C", path, "rev-parse", "--show-toplevel", "HEAD"], capture_output=True,
                                             text=True, check=True).stdout.split()
                self.commit = commit if os.path.realpath(top) == os.path.realpath(path) else None
            except (subprocess.CalledProcessError, FileNotFoundError, ValueError):
                self.commit = None

    def _git(self, *args):
        return subprocess.run(["git", "--git-dir", self.path, *args], capture_output=True, text=True, check=True).stdout

    def read(self, relative):
        if self.git:
            return self._git("show", "HEAD:" + relative)
        with open(os.path.join(self.path, relative), encoding="utf-8") as f:
            return f.read()

    def list(self, folder):
        if self.git:
            return sorted(folder + "/" + name for name in self._git("ls-tree", "--name-only", "HEAD:" + folder).split())
        return sorted(folder + "/" + name for name in os.listdir(os.path.join(self.path, folder)))


def load(text):
    # BaseLoader: every scalar a string ("NO" stays Norway, postcode 01234 stays 01234).
    return yaml.load(text, Loader=yaml.BaseLoader)


def load_all(text):
    return [doc for doc in yaml.load_all(text, Loader=yaml.BaseLoader) if doc]


# MARK: - Templates

TOKEN = re.compile(r"\{\{\{(\w+)\}\}\}|\{\{#first\}\}|\{\{/first\}\}")


def parse_template(text):
    """Lines of tokens: ("lit", text), ("var", name), ("first", [[tokens], …])."""
    lines = []
    for raw in text.split("\n"):
        if not raw.strip():
            continue
        tokens, stack = [], []
        position = 0
        for m in TOKEN.finditer(raw):
            if m.start() > position:
                (stack[-1] if stack else tokens).append(("lit", raw[position:m.start()]))
            position = m.end()
            if m.group(1):
                (stack[-1] if stack else tokens).append(("var", m.group(1)))
            elif m.group(0) == "{{#first}}":
                assert not stack, "nested first-of"
                stack.append([])
            else:
                body = stack.pop()
                alternatives, current = [], []
                for token in body:
                    if token[0] == "lit" and "||" in token[1]:
                        parts = token[1].split("||")
                        if parts[0]:
                            current.append(("lit", parts[0]))
                        for part in parts[1:]:
                            alternatives.append(current)
                            current = [("lit", part)] if part else []
                    else:
                        current.append(token)
                alternatives.append(current)
                tokens.append(("first", alternatives))
        assert not stack, "first-of across lines: " + raw
        if position < len(raw):
            tokens.append(("lit", raw[position:]))
        lines.append(tokens)
    return lines


ROAD_STAND_INS = {"place", "hamlet"}
COMPONENT_FIELD = {
    "house_number": "N",
    "road": "S",
    "postcode": "P",
    "suburb": "D", "city_district": "D", "neighbourhood": "D", "quarter": "D", "city_block": "D", "residential": "D",
    "city": "L", "town": "L", "village": "L", "municipality": "L", "postal_city": "L", "hamlet": "L", "area": "L",
    "county": "K", "state_district": "K", "county_code": "k",
    "state": "A", "state_code": "a", "region": "A", "province": "A",
    "country": "C",
}
DROPPED = {"attention", "house", "place", "island", "archipelago", "continent", "country_code"}


def field_of(component, in_road_first):
    if in_road_first and component in ROAD_STAND_INS:
        return "S"
    if component in COMPONENT_FIELD:
        return COMPONENT_FIELD[component]
    assert component in DROPPED, "unmapped component " + component
    return None


PRIMARY = {"N": "house_number", "S": "road", "P": "postcode", "D": "suburb", "L": "city", "K": "county",
           "A": "state", "C": "country"}


def clean_literals(items):
    """Merges neighbouring text, keeping only the first text where a dropped slot stood between
    two (the text that follows the last value, as the renderer does); drops text at either end."""
    merged = []
    gap = False
    for item in items:
        if item[0] == "gap":
            gap = True
            continue
        if item[0] == "lit" and merged and merged[-1][0] == "lit":
            if not gap:
                merged[-1] = ("lit", merged[-1][1] + item[1])
        else:
            merged.append(item)
        if item[0] != "lit":
            gap = False
    while merged and merged[0][0] == "lit":
        merged.pop(0)
    while merged and merged[-1][0] == "lit":
        merged.pop()
    return [("lit", re.sub(r"\s+", " ", i[1])) if i[0] == "lit" else i for i in merged]


def collapse(alternatives):
    """One alternative per field, each where the component the field mostly holds stands (K, which
    is the county, where the county is offered: "state_district || suburb || county" is D before K),
    else where the field is first offered; the components of each field kept in order."""
    singles = {}
    for position, alt in enumerate(alternatives):
        if len(alt) == 1:
            code, components = alt[0][1], alt[0][2]
            # "{{{state_code}}} || {{{state}}}" is the state's code where there is one (a), else
            # its name; "{{{state}}} || {{{state_code}}}" the name (A).
            entry = singles.setdefault(code.upper(), {"letter": code, "first": position, "primary": None, "components": []})
            if PRIMARY[code.upper()] in components and entry["primary"] is None:
                entry["primary"] = position
            entry["components"] += [c for c in components if c not in entry["components"]]
    ordered = []
    for position, alt in enumerate(alternatives):
        if len(alt) == 1:
            entry = singles[alt[0][1].upper()]
            at = entry["primary"] if entry["primary"] is not None else entry["first"]
            if at == position:
                ordered.append([("field", entry["letter"], entry["components"])])
        elif alt not in ordered:
            ordered.append(alt)
    return ordered


def reduce_template(text):
    """The template as lines of ("lit", text) / ("slot", [alternative, …]), an alternative being a
    sequence of ("field", code, [components]) with ("lit", text) between."""
    reduced = []
    for tokens in parse_template(text):
        line = []
        for token in tokens:
            if token[0] == "lit":
                line.append(token)
            elif token[0] == "var":
                field = field_of(token[1], False)
                line.append(("slot", [[("field", field, [token[1]])]]) if field else ("gap",))
            else:
                alternatives = token[1]
                road_first = any(t == ("var", "road") for alt in alternatives for t in alt)
                mapped = []
                for alt in alternatives:
                    items = []
                    for t in alt:
                        if t[0] == "lit":
                            items.append(t)
                        else:
                            field = field_of(t[1], road_first)
                            items.append(("field", field, [t[1]]) if field else ("gap",))
                    if len(alternatives) == 1:
                        # A first-of of one alternative ("{{#first}}, {{{quarter}}}{{/first}}") is its
                        # content in the line.
                        line.extend(("slot", [[i]]) if i[0] == "field" else i for i in items)
                        break
                    items = clean_literals(items)
                    # "{{{village}}} {{{postal_city}}}" is one L: the same field twice is the field.
                    codes = {i[1].upper() for i in items if i[0] == "field"}
                    if len(codes) == 1:
                        items = [("field", items[0][1], [c for i in items if i[0] == "field" for c in i[2]])]
                    if items:
                        mapped.append(items)
                else:
                    mapped = collapse(mapped)
                    line.append(("slot", mapped) if mapped else ("gap",))
        # Text ending a line after a field is that field's suffix (Hungary's "{{{house_number}}}.").
        if len(tokens) > 1 and tokens[-1][0] == "lit" and tokens[-1][1].strip() and tokens[-2][0] == "var" \
                and line[-2][0] == "slot":
            line[-1] = ("suffix", tokens[-1][1].rstrip())
        reduced.append(line)
    return reduced


def encode(lines):
    """The pattern string: slots with the text between them; text before the first or after the
    last slot of a line is dropped (it would only stand next to nothing)."""
    out = []
    for line in lines:
        pieces = clean_literals([("field", p[1]) if p[0] == "slot" else p for p in line])
        if not pieces:
            continue
        text = ""
        for p in pieces:
            if p[0] == "field":
                alternatives = []
                for alt in p[1]:
                    for i in alt:
                        assert i[0] == "field" or not re.search(r"[A-Za-z{}|\n]", i[1]), "literal in a slot: %r" % i[1]
                    alternatives.append("".join(i[1] for i in alt))
                text += "{" + "|".join(alternatives) + "}"
            else:
                assert not re.search(r"[{}\n]", p[1]), "literal: %r" % p[1]
                text += p[1]
        out.append(text)
    # (A suffix is the one text a line ends with; decode reads it as text, the renderer writes it
    # after the value before it.)
    return "\n".join(out)


def field_order(lines):
    """For each field, the components that fill it, from the last slot offering it back to the
    first (the renderer gives a field to the last slot that takes it), each slot in its order."""
    order = {}
    for line in reversed(lines):
        for piece in reversed(line):
            if piece[0] != "slot":
                continue
            for alt in piece[1]:
                for item in alt:
                    if item[0] == "field":
                        field = item[1].upper()
                        order.setdefault(field, [])
                        order[field] += [c for c in item[2] if c not in order[field]]
    return order


# MARK: - Rendering (the same rules as AddressFormat.swift)

def decode(pattern):
    """Pattern string → lines of ("lit", t) / ("slot", [[("field", f) / ("lit", t)]])."""
    lines = []
    for text in pattern.split("\n"):
        pieces = []
        for m in re.finditer(r"\{([^}]*)\}|[^{]+", text):
            if m.group(1) is not None:
                alternatives = []
                for alt in m.group(1).split("|"):
                    alternatives.append([("field", c) if c in FIELDS else ("lit", c) for c in re.findall(r"[A-Za-z]|[^A-Za-z]+", alt)])
                pieces.append(("slot", alternatives))
            else:
                pieces.append(("lit", m.group(0)))
        lines.append(pieces)
    return lines


def render_sequence(pieces, value):
    """Values with the text that follows the last value written between them; a value equal to the
    one before it is not repeated; text after the last value is its suffix."""
    out, separator, previous, after_value, wrote = "", "", None, False, False
    for piece in pieces:
        if piece[0] == "lit":
            if after_value:
                separator, after_value = piece[1], False
            continue
        text = value(piece)
        wrote = bool(text) and text != previous
        if not wrote:
            continue
        out += (separator if previous is not None else "") + text
        previous, separator, after_value = text, "", True
    # Text ending the sequence is the last value's suffix (Hungary's "12."): written after it.
    if pieces and pieces[-1][0] == "lit" and wrote:
        out += pieces[-1][1]
    return out


def abbreviated(letter, value, codes):
    """`value` as its code when `letter` asks for one (a, k) and the country's table has it: a code
    stays, a name listed in the table becomes its code (compared in lower case), anything else is
    written as it is."""
    if letter.isupper():
        return value
    table = (codes or {}).get(letter) or {}
    if value.upper() in table.values():
        return value.upper()
    return table.get(value.lower(), value)


def render(pattern, values, codes=None):
    """Lines for `values` (field code → text; "C" the country's name, absent when the country is
    left out: then its slot is left out too). Each field is written once, in the last slot that
    takes it: slots choose from the last to the first, each its first alternative with a field that
    has a value no later slot took. `codes` maps "a"/"k" to the country's name → code tables."""
    lines = decode(pattern)
    slots = [(li, pi) for li, line in enumerate(lines) for pi, piece in enumerate(line) if piece[0] == "slot"]
    taken, chosen = set(), {}
    for li, pi in reversed(slots):
        alternatives = lines[li][pi][1]
        if any(i == ("field", "C") for alt in alternatives for i in alt) and not values.get("C"):
            continue
        for alt in alternatives:
            fields = {i[1].upper() for i in alt if i[0] == "field" and values.get(i[1].upper()) and i[1].upper() not in taken}
            if fields:
                chosen[(li, pi)] = [i for i in alt if i[0] == "lit" or i[1].upper() in fields]
                taken |= fields
                break
    result = []
    for li, pieces in enumerate(lines):
        marked = [piece if piece[0] == "lit" else ("slot", (li, pi)) for pi, piece in enumerate(pieces)]
        line = render_sequence(marked, lambda slot: render_sequence(
            chosen.get(slot[1], []), lambda f: abbreviated(f[1], values[f[1].upper()], codes))).strip()
        if line and line not in result:
            result.append(line)
    return result


# MARK: - Countries

def country_entries(config):
    """Country code → (address template, fallback template, the country whose rules apply), after
    use_country; and the default's two templates."""
    default = config["default"]
    entries = {}
    for code, entry in config.items():
        if not re.fullmatch(r"[A-Z]{2}", code):
            continue
        source = entry
        seen, target = {code}, code
        while "use_country" in source:
            target = source["use_country"]
            assert target not in seen, "use_country loop at " + code
            seen.add(target)
            source = config[target]
        entries[code] = (source["address_template"], source.get("fallback_template", default["fallback_template"]), target if source is not entry else code)
    return entries, (default["address_template"], default["fallback_template"])


def pattern_of(template):
    return encode(reduce_template(template))


def name_table(listing):
    """state_codes.yaml / county_codes.yaml for one country → lower-cased name → code, every
    name (default and alternatives) of every code; the first code listed wins a shared name."""
    table = {}
    for code, names in (listing or {}).items():
        for name in [names] if isinstance(names, str) else list(names.values()):
            table.setdefault(name.lower(), code)
    return table


def code_tables(patterns, rules_code, state_codes, county_codes):
    """The name → code tables the country's patterns ask for ("a": states, "k": counties)."""
    tables = {}
    for letter, listing in (("a", state_codes), ("k", county_codes)):
        if any(re.search(r"\{[^}]*" + letter, p) for p in patterns) and listing.get(rules_code):
            tables[letter] = name_table(listing[rules_code])
    return tables


# MARK: - Self-check

class Checker:
    def __init__(self, source, config):
        self.config = config
        self.aliases = {}
        for component in load_all(source.read("conf/components.yaml")):
            for alias in component.get("aliases", []):
                self.aliases[alias] = component["name"]
        self.known = set(self.aliases) | {c["name"] for c in load_all(source.read("conf/components.yaml"))}
        self.state_codes = load(source.read("conf/state_codes.yaml"))
        self.county_codes = load(source.read("conf/county_codes.yaml"))

    def country_code(self, components):
        code = components.get("country_code")
        if not code and re.fullmatch(r"[A-Za-z]{2}", components.get("country", "")):
            code = components["country"]
        code = (code or "").upper()
        return "GB" if code == "UK" else code

    def config_of(self, code):
        entry = self.config.get(code)
        if entry is None:
            return self.config["default"], self.config["default"]
        source = entry
        while "use_country" in source:
            source = self.config[source["use_country"]]
        return entry, source

    def prepare(self, components, code, entry, rules_entry, rules):
        """Components as OpenCage's formatter sees them: aliases filled in, add_component applied;
        with `rules`, its postcode cleaning and the `replace` regexes too."""
        c = {k: v for k, v in components.items() if isinstance(v, str) and v != ""}
        for key, value in list(c.items()):
            canonical = self.aliases.get(key)
            if canonical and canonical not in c:
                c[canonical] = value
        if "add_component" in entry:
            key, value = entry["add_component"].split("=", 1)
            c[key] = value
        if rules:
            # OpenCage's sanity cleaning of postcodes (ranges and lists from OSM).
            postcode = c.get("postcode", "")
            if len(postcode) > 20 or re.search(r"\d+;\d+", postcode):
                c.pop("postcode")
            elif re.match(r"^(\d{5}),\d{5}", postcode):
                c["postcode"] = postcode[:5]
            for pattern, replacement in rules_entry.get("replace", []):
                replacement = re.sub(r"\$(\d)", r"\\\1", replacement)
                for key in list(c):
                    if "=" in pattern:
                        field, rest = pattern.split("=", 1)
                        if field == key:
                            c[key] = re.sub(rest, replacement, c[key])
                    else:
                        c[key] = re.sub(pattern, replacement, c[key])
            c = {k: v.strip() for k, v in c.items() if v.strip()}
        return c

    @staticmethod
    def values_for(template, components):
        """Our fields' values: each the first component the template offers for it, from its last
        slot back (what OpenCage would write in the place the renderer gives the field)."""
        values = {}
        for field, order in field_order(reduce_template(template)).items():
            value = next((components[c] for c in order if components.get(c)), None)
            if value:
                values[field] = value
        return values

    def expressible_expected(self, expected, components, values):
        """`expected` without what only unexpressible components wrote (attention, house names,
        islands): such lines go, and such parts of a comma-separated line."""
        ours = set(values.values())
        foreign = set()
        for key, value in components.items():
            if key in COMPONENT_FIELD or key in ROAD_STAND_INS or key == "country_code":
                continue
            if key in self.known and self.aliases.get(key, key) in COMPONENT_FIELD:
                continue
            foreign.add(value)
        # Unknown components (hotel=, shop= …) are OpenCage's attention: joined with ", ".
        unknown = [v for k, v in components.items() if k not in self.known and k not in COMPONENT_FIELD]
        if unknown:
            foreign.add(", ".join(unknown))
        foreign -= ours
        lines = []
        for line in expected.strip("\n").split("\n"):
            line = line.strip()
            if line in foreign:
                continue
            parts = [p for p in line.split(", ") if p not in foreign]
            line = ", ".join(parts).strip()
            if line:
                lines.append(line)
        return lines

    def run(self, source, verbose):
        cases = []
        for folder in ("testcases/countries", "testcases/other"):
            for path in source.list(folder):
                if path.endswith(".yaml"):
                    for doc in load_all(source.read(path)):
                        if "components" in doc and "expected" in doc:
                            cases.append((path, doc))
        exact, with_rules, failures = 0, 0, []
        for path, doc in cases:
            raw = doc["components"]
            code = self.country_code(raw)
            entry, template_source = self.config_of(code)
            default = self.config["default"]
            results = []
            # Like OpenCage: use_country's template, rules and abbreviations; the country's own
            # change_country and add_component.
            rules_code = code
            while "use_country" in self.config.get(rules_code, {}):
                rules_code = self.config[rules_code]["use_country"]
            for rules in (False, True):
                c = self.prepare(raw, rules_code, entry, template_source, rules)
                minimal = "road" in c or "postcode" in c
                if minimal:
                    template = template_source["address_template"]
                else:
                    template = template_source.get("fallback_template", default["fallback_template"])
                values = self.values_for(template, c)
                country = entry.get("change_country", c.get("country", ""))
                country = re.sub(r"\$(\w+)", lambda m: c.get(m.group(1), ""), country)
                if country:
                    values["C"] = country
                # Rendered through the reduced pattern, as the Swift table holds it.
                pattern = pattern_of(template)
                lines = render(pattern, values, code_tables([pattern], rules_code, self.state_codes, self.county_codes))
                text = "\n".join(lines)
                if rules:
                    for pattern, replacement in template_source.get("postformat_replace", []):
                        text = re.sub(pattern, re.sub(r"\$(\d)", r"\\\1", replacement), text + "\n").rstrip("\n")
                    lines = [l for l in (l.strip() for l in text.split("\n")) if l]
                    unique = []
                    for l in lines:
                        if l not in unique:
                            unique.append(l)
                    lines = unique
                expected = self.expressible_expected(doc["expected"], c, values)
                results.append(lines == expected)
                if rules and not lines == expected:
                    failures.append((path, doc.get("description", ""), expected, lines))
            exact += results[0]
            with_rules += results[1]
        print(f"self-check: {exact} of {len(cases)} OpenCage testcases pass as is; {with_rules} with the dropped "
              f"replace/postformat_replace regexes and postcode cleaning applied by the check", file=sys.stderr)
        if verbose:
            for path, description, expected, lines in failures:
                print(f"  {path}: {description}\n    expected {expected}\n    ours     {lines}", file=sys.stderr)
        return exact, with_rules, len(cases)


# MARK: - Output

def swift_string(s):
    out = '"'
    for ch in s:
        if ch == '"': out += '\\"'
        elif ch == '\\': out += '\\\\'
        elif ch == '\n': out += '\\n'
        else: out += ch
    return out + '"'


def generate(source, config):
    entries, default = country_entries(config)
    state_codes = load(source.read("conf/state_codes.yaml"))
    county_codes = load(source.read("conf/county_codes.yaml"))
    patterns = []

    def index(template):
        p = pattern_of(template)
        if p not in patterns:
            patterns.append(p)
        return patterns.index(p)

    default_indices = (index(default[0]), index(default[1]))
    table = {}
    tables = {"a": {}, "k": {}}  # letter → rules country → (table, [countries])
    for code, (address, fallback, rules_code) in sorted(entries.items()):
        table[code] = (index(address), index(fallback))
        used = code_tables([patterns[i] for i in table[code]], rules_code, state_codes, county_codes)
        for letter, names in used.items():
            tables[letter].setdefault(rules_code, (names, []))[1].append(code)
    users = {i: [] for i in range(len(patterns))}
    for code, (a, f) in table.items():
        users[a].append(code)
    users[default_indices[0]].insert(0, "default")

    commit = f", commit {source.commit[:12]}" if source.commit else ""
    out = [
        "// GENERATED by Scripts/make-address-formats.py from OpenCage's address-formatting",
        f"// (https://github.com/OpenCageData/address-formatting{commit}), MIT licence, © OpenCage GmbH.",
        "// Do not edit by hand: edit the script and run it again. Each country's template is reduced to",
        "// the address fields MapSearch has; the pattern codes are documented on AddressFormat.",
        "//",
        "// address-formatting's licence (LICENSE.txt), which covers the templates and code tables this",
        "// file is derived from:",
        "//",
        *[("// " + line).rstrip() for line in source.read("LICENSE.txt").strip().split("\n")],
        "",
        "extension AddressFormat {",
        "    /// The distinct line patterns; ``generatedCountries`` points into it (the comments name the",
        "    /// countries whose address pattern it is).",
        "    static let generatedPatterns: [String] = [",
    ]
    for i, p in enumerate(patterns):
        who = ", ".join(users[i][:12]) + (" …" if len(users[i]) > 12 else "")
        out.append(f"        {swift_string(p)}," + (f" // {i}: {who}" if who else f" // {i}"))
    out += [
        "    ]",
        "",
        "    /// OpenCage's `default`: the address and fallback patterns of a country the table lacks.",
        f"    static let generatedDefault = (address: {default_indices[0]}, fallback: {default_indices[1]})",
        "",
        "    /// ISO 3166-1 alpha-2 code → indices in ``generatedPatterns`` of its address pattern and of its",
        "    /// fallback pattern (for an address with neither street nor postcode).",
        "    static let generatedCountries: [String: (address: Int, fallback: Int)] = [",
    ]
    row = []
    for code, (a, f) in table.items():
        row.append(f'"{code}": ({a}, {f}),')
        if len(row) == 8:
            out.append("        " + " ".join(row))
            row = []
    if row:
        out.append("        " + " ".join(row))
    out.append("    ]")
    for letter, field, source_file in (("a", "administrative area", "state_codes.yaml"),
                                       ("k", "sub-administrative area", "county_codes.yaml")):
        name = "generatedStateCodes" if letter == "a" else "generatedCountyCodes"
        out += [
            "",
            f"    /// Country → lower-cased {field} name → its code, for the countries whose pattern writes the",
            f"    /// code (`{{{letter}}}`), from OpenCage's {source_file}.",
            f"    static let {name}: [String: [String: String]] = [",
        ]
        for rules_code, (names, countries) in sorted(tables[letter].items()):
            out.append("        " + " ".join(f'"{c}": {name}{rules_code},' for c in countries))
        out.append("    ]")
        for rules_code, (names, countries) in sorted(tables[letter].items()):
            out.append(f"    private static let {name}{rules_code}: [String: String] = [")
            row = []
            for key, code in names.items():
                row.append(f"{swift_string(key)}: {swift_string(code)},")
                if len(", ".join(row)) > 90:
                    out.append("        " + " ".join(row))
                    row = []
            if row:
                out.append("        " + " ".join(row))
            out.append("    ]")
    out += ["}", ""]
    return "\n".join(out), len(patterns), len(table)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("source", help="address-formatting checkout or git directory")
    parser.add_argument("--out", default=DEFAULT_OUT)
    parser.add_argument("--check", action="store_true", help="compare with the committed output")
    parser.add_argument("--verbose", action="store_true", help="list the testcases that differ")
    args = parser.parse_args()

    source = Source(args.source)
    config = load(source.read("conf/countries/worldwide.yaml"))
    text, pattern_count, country_count = generate(source, config)
    print(f"{country_count} countries, {pattern_count} distinct patterns", file=sys.stderr)
    Checker(source, config).run(source, args.verbose)
    if args.check:
        with open(args.out, encoding="utf-8") as f:
            if f.read() != text:
                print(f"{args.out} differs from what the script generates", file=sys.stderr)
                sys.exit(1)
        return
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
