#!/usr/bin/env python3
"""Generates Sources/OpenMapKit/Mapbox/Styling/MGLStyleLayer+Properties.generated.swift.

Every paint and layout property of every layer type becomes an `NSExpression!` property of the
layer's Mapbox class (`fill-color` → `MGLFillStyleLayer.fillColor`), and every property that can
animate gets an `MGLTransition` (`fillColorTransition`). The property list is read from MapStyle's
generated style reference (Sources/MapStyle/StyleReference+Generated.swift, itself generated from
the MapLibre style specification), so a property the specification gains appears here when both
scripts run again.

Names follow the rule of Mapbox's darwin SDK (maplibre-native platform/darwin/scripts/
generate-style-code.js): the specification's name in lower camel case, after the renames of
style-spec-cocoa-conventions-v8.json, copied below as facts. A renamed name starting with `is-`
is the Objective-C getter only; the property (and so its Swift name) drops the `is-`
(`fill-antialias` → `fillAntialiased`). `visibility` is not generated: it is
`MGLStyleLayer.isVisible`.

Usage: Scripts/generate-mapbox-style-properties.py [--check]
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REFERENCE = os.path.join(ROOT, "Sources", "MapStyle", "StyleReference+Generated.swift")
OUT = os.path.join(ROOT, "Sources", "OpenMapKit", "Mapbox", "Styling", "MGLStyleLayer+Properties.generated.swift")

# Mapbox's renames (style-spec-cocoa-conventions-v8.json), by section.
RENAMES = {
    "layout_symbol": {
        "icon-allow-overlap": "icon-allows-overlap", "icon-image": "icon-image-name",
        "icon-ignore-placement": "icon-ignores-placement", "icon-keep-upright": "keeps-icon-upright",
        "icon-optional": "is-icon-optional", "icon-rotate": "icon-rotation", "icon-size": "icon-scale",
        "symbol-avoid-edges": "symbol-avoids-edges", "text-allow-overlap": "text-allows-overlap",
        "text-field": "text", "text-font": "text-font-names", "text-ignore-placement": "text-ignores-placement",
        "text-justify": "text-justification", "text-keep-upright": "keeps-text-upright",
        "text-max-angle": "maximum-text-angle", "text-max-width": "maximum-text-width",
        "text-optional": "is-text-optional", "text-rotate": "text-rotation", "text-size": "text-font-size",
        "text-writing-mode": "text-writing-modes",
    },
    "paint_circle": {
        "circle-pitch-scale": "circle-scale-alignment", "circle-translate": "circle-translation",
        "circle-translate-anchor": "circle-translation-anchor",
    },
    "paint_fill": {
        "fill-antialias": "is-fill-antialiased", "fill-translate": "fill-translation",
        "fill-translate-anchor": "fill-translation-anchor",
    },
    "paint_fill-extrusion": {
        "fill-extrusion-translate": "fill-extrusion-translation",
        "fill-extrusion-translate-anchor": "fill-extrusion-translation-anchor",
        "fill-extrusion-vertical-gradient": "fill-extrusion-has-vertical-gradient",
    },
    "paint_raster": {
        "raster-brightness-min": "minimum-raster-brightness", "raster-brightness-max": "maximum-raster-brightness",
        "raster-hue-rotate": "raster-hue-rotation", "raster-resampling": "raster-resampling-mode",
    },
    "paint_line": {
        "line-dasharray": "line-dash-pattern", "line-translate": "line-translation",
        "line-translate-anchor": "line-translation-anchor",
    },
    "paint_symbol": {
        "icon-translate": "icon-translation", "icon-translate-anchor": "icon-translation-anchor",
        "text-translate": "text-translation", "text-translate-anchor": "text-translation-anchor",
    },
}

# Layer type → Swift class, in the specification's order of Mapbox's classes.
CLASSES = [
    ("fill", "MGLFillStyleLayer"), ("line", "MGLLineStyleLayer"), ("symbol", "MGLSymbolStyleLayer"),
    ("circle", "MGLCircleStyleLayer"), ("heatmap", "MGLHeatmapStyleLayer"),
    ("fill-extrusion", "MGLFillExtrusionStyleLayer"), ("raster", "MGLRasterStyleLayer"),
    ("hillshade", "MGLHillshadeStyleLayer"), ("color-relief", "MGLColorReliefStyleLayer"),
    ("background", "MGLBackgroundStyleLayer"),
]

# Properties OpenMapKit's renderer stores but does not draw (see MapRender's StyleRenderer).
NOT_DRAWN = {
    "fill-extrusion-pattern": "OpenMapKit's renderer does not draw extrusion patterns",
    "raster-fade-duration": "nothing fades in OpenMapKit's still frames",
    "text-pitch-alignment": "a pitched map is drawn flat and warped, so labels always lie on the map",
    "icon-pitch-alignment": "a pitched map is drawn flat and warped, so icons always lie on the map",
    "circle-pitch-scale": "a pitched map is drawn flat and warped, so circles always scale with the map",
    "circle-pitch-alignment": "a pitched map is drawn flat and warped, so circles always lie on the map",
}

KINDS = {
    "data-driven": "May vary with the zoom level and with feature attributes.",
    "cross-faded-data-driven": "May vary with the zoom level and with feature attributes.",
    "data-constant": "May vary with the zoom level, not with feature attributes.",
    "cross-faded": "May vary with the zoom level, not with feature attributes.",
    "color-ramp": None,
    "constant": "A constant: expressions are refused.",
}


def swift_literal_to_json(text):
    """MapStyle's generated JSONValue literal (`.array([.number(0), .string("a")])`) as JSON text."""
    out = text
    out = re.sub(r"\.object\(JSONObject\(\[\]\)\)", "{}", out)
    out = re.sub(r"\.number\(([^)]*)\)", r"\1", out)
    out = re.sub(r"\.bool\((true|false)\)", r"\1", out)
    out = re.sub(r'\.string\(("(?:[^"\\]|\\.)*")\)', r"\1", out)
    out = out.replace(".array([", "[").replace("])", "]").replace(".null", "null")
    return out


def field(spec, key):
    m = re.search(r'\b' + key + r': ("(?:[^"\\]|\\.)*"|\.\w+\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)|\[[^\]]*\]|true|false|[\d.\-e]+)', spec)
    return m.group(1) if m else None


def read_reference():
    sections, current = {}, None
    for line in open(REFERENCE, encoding="utf-8"):
        head = re.match(r'^        \("([^"]+)", \[$', line)
        if head:
            current = head.group(1)
            sections[current] = []
            continue
        entry = re.match(r'^            StylePropertySpec\(name: "([^"]+)", (.*)\),$', line)
        if entry and current is not None:
            sections[current].append((entry.group(1), entry.group(2)))
    return sections


def camel(name):
    parts = name.split("-")
    return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])


def swift_name(section, name):
    renamed = RENAMES.get(section, {}).get(name, name)
    if renamed.startswith("is-"):
        renamed = renamed[3:]
    return camel(renamed)


def type_phrase(spec):
    kind = (field(spec, "type") or '""').strip('"')
    value = (field(spec, "value") or '""').strip('"')
    length = field(spec, "length")
    if kind == "array":
        count = f"{length} " if length else ""
        return f"an array of {count}{value}s" if value else "an array"
    if kind == "enum":
        values = re.findall(r'\.string\("([^"]+)"\)', field(spec, "values") or "")
        return "one of " + ", ".join(f"`{v}`" for v in values)
    return {"number": "a number", "string": "a string", "boolean": "a Boolean", "color": "a colour",
            "formatted": "a string or formatted text", "resolvedImage": "an image name", "padding": "padding (1 to 4 numbers)",
            "numberArray": "a number or an array of numbers", "colorArray": "a colour or an array of colours",
            "variableAnchorOffsetCollection": "anchors with offsets"}.get(kind, kind)


def doc(section, name, spec, kind):
    lines = [f"The `{name}` {kind} property: {type_phrase(spec)}"]
    units = field(spec, "units")
    if units:
        lines[0] += f", in {units.strip(chr(34))}"
    default = field(spec, "defaultValue")
    lines[0] += f"; default `{swift_literal_to_json(default)}`." if default else "; no default (not drawn while unset)."
    property_type = (field(spec, "propertyType") or '""').strip('"')
    if KINDS.get(property_type):
        lines.append(KINDS[property_type])
    elif property_type == "color-ramp":
        lines.append("A ramp over `$heatmapDensity` or `$lineProgress`.")
    lines.append("Set nil to reset it to the default; reading it unset gives the default as an expression.")
    lines.append("A value of the wrong type stops the program with the reason (where Mapbox raises):")
    lines.append("``MGLStyleLayer/setValue(_:forStyleProperty:)`` throws instead.")
    if name in NOT_DRAWN:
        lines.append(f"Differs from Mapbox: stored in the style but not drawn ({NOT_DRAWN[name]}).")
    return lines


def wrap(words_lines, indent):
    text = " ".join(words_lines)
    out, line = [], ""
    for word in text.split(" "):
        if len(indent) + 4 + len(line) + len(word) + 1 > 110 and line:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    out.append(line)
    return [f"{indent}/// {l}" for l in out]


def generate():
    sections = read_reference()
    out = [
        "// GENERATED by Scripts/generate-mapbox-style-properties.py from MapStyle's style reference.",
        "// Do not edit by hand: edit the script and run it again.",
        "",
        "import Foundation",
        "",
    ]
    for layer_type, cls in CLASSES:
        rows, members = [], []
        for kind in ("layout", "paint"):
            section = f"{kind}_{layer_type}"
            for name, spec in sections.get(section, []):
                if name == "visibility":
                    continue
                swift = swift_name(section, name)
                transition = "transition: true" in spec
                layer = f"($0 as! {cls})"
                transition_accessors = (f"getTransition: {{ {layer}.{swift}Transition }}, setTransition: {{ {layer}.{swift}Transition = $1 }}"
                                        if transition else "getTransition: nil, setTransition: nil")
                rows.append(f'        MGLStyleLayerProperty(name: "{swift}", styleName: "{name}", kind: .{kind},')
                rows.append(f'                              get: {{ {layer}.{swift} }}, set: {{ {layer}.{swift} = $1 }},')
                rows.append(f'                              {transition_accessors}),')
                members.append("")
                members += wrap(doc(section, name, spec, kind), "    ")
                members += [
                    f"    public var {swift}: NSExpression! {{",
                    f'        get {{ styleValue("{name}", .{kind}) }}',
                    f'        set {{ setStyleValue(newValue, "{name}", .{kind}) }}',
                    "    }",
                ]
                if transition:
                    members.append("")
                    members += wrap([f"How changes to ``{swift}`` animate (`{name}-transition`): its duration and delay."], "    ")
                    members += [
                        f"    public var {swift}Transition: MGLTransition {{",
                        f'        get {{ styleTransition("{name}") }}',
                        f'        set {{ setStyleTransition(newValue, "{name}") }}',
                        "    }",
                    ]
        out.append(f"extension {cls} {{")
        out.append(f"    /// Every paint and layout property of `{layer_type}` layers but `visibility` (``MGLStyleLayer/isVisible``).")
        out.append(f"    static let styleProperties: [MGLStyleLayerProperty] = [")
        out += rows
        out.append("    ]")
        out += members
        out.append("}")
        out.append("")
    return "\n".join(out)


def main():
    text = generate()
    if "--check" in sys.argv:
        with open(OUT, encoding="utf-8") as f:
            if f.read() != text:
                print(f"{os.path.relpath(OUT, ROOT)} is out of date: run Scripts/generate-mapbox-style-properties.py")
                sys.exit(1)
        print(f"{os.path.relpath(OUT, ROOT)} is up to date.")
        return
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
